// The picture view's update loop: the Picture as drawn, kept in
// step with the counts store and the sessions list. Each change is taken in
// the next task: it patches only the moved edges (model.ts patchPicture) and
// busy/idle dots into the graph, O(changed); a new fetch, a new graph, or a
// change it cannot patch rebuilds. Everything taken within one frame is
// drawn by that one frame (sigma renders once per frame) and the list
// re-renders once per frame. Notes on the graph's box each update's time
// from the oldest hub event not yet drawn reaching the page:
// `data-apply-ms` (in the graph), `data-update-ms` (its frame has run).
import type { StoreApi } from 'zustand/vanilla';
import type { AgentRow } from '../../../core/protocol/methods.js';
import type { PictureState } from '../../stores/picture.js';
import type { GraphView } from './graph.js';
import { buildPicture, patchPicture, patchSessions, type Picture } from './model.js';

export interface Scheduler {
  /** The next animation frame. */
  frame(fn: () => void): void;
  /** As soon as the page is free (a task). */
  soon(fn: () => void): void;
}

export const PAGE_SCHEDULER: Scheduler = {
  frame: (fn) => void requestAnimationFrame(fn),
  soon: (fn) => void setTimeout(fn, 0),
};

export interface LiveSources {
  picture: StoreApi<PictureState>;
  sessions: StoreApi<{ data: AgentRow[] }>;
}

/** The picture as drawn and what it was built from (another version or sessions list: patch or rebuild). */
export class LivePicture {
  #picture: Picture;
  #version: number;
  #sessions: readonly AgentRow[];
  readonly #src: LiveSources;

  constructor(src: LiveSources) {
    this.#src = src;
    [this.#picture, this.#version, this.#sessions] = this.#build();
  }

  get picture(): Picture {
    return this.#picture;
  }

  /** Brings the picture up to date and draws the change on `view` (all of it when `whole`, e.g. a new graph). */
  update(view: GraphView | null, whole: boolean): void {
    const p = this.#src.picture.getState();
    const rows = this.#src.sessions.getState().data;
    const edges = new Set<string>();
    let dots: string[] = [];
    let full = this.#version !== p.version;
    if (!full && this.#sessions !== rows) {
      const changed = patchSessions(this.#picture, this.#sessions, rows); // an inbox depth changes nothing drawn
      if (changed === null) full = true;
      else [dots, this.#sessions] = [changed, rows];
    }
    if (!full) {
      for (const m of p.drain().moves) {
        const key = patchPicture(this.#picture, m);
        if (key === null) {
          full = true;
          break;
        }
        edges.add(key);
      }
    }
    if (full) [this.#picture, this.#version, this.#sessions] = this.#build();
    if (view === null) return;
    if (full || whole) view.apply(this.#picture);
    else view.patch(this.#picture, edges, dots);
  }

  #build(): [Picture, number, readonly AgentRow[]] {
    const p = this.#src.picture.getState();
    const rows = this.#src.sessions.getState().data;
    p.drain(); // the counts already hold every move applied so far
    return [buildPicture(rows, p.counts.rows.values()), p.version, rows];
  }
}

/** Follows the stores: updates `live` and draws on `view()` as described above, until the returned disposer runs. */
export function follow(
  live: LivePicture,
  src: LiveSources,
  view: () => { graph: GraphView | null; box: HTMLElement | null },
  onUpdated: () => void,
  schedule: Scheduler,
): () => void {
  let due = false;
  let gone = false;
  let painting = false; // this frame's callback is registered (after sigma's own, so it runs after the render)
  let given: GraphView | null = null; // the graph that has this picture (a new one gets all of it)
  const painted = (): void => {
    painting = false;
    if (gone) return;
    const { graph, box } = view();
    const timing = src.picture.getState().timing;
    const at = timing.eventAt;
    timing.eventAt = null;
    if (graph !== null && box !== null) {
      box.dataset.revision = String(Number(box.dataset.revision ?? '0') + 1);
      if (at !== null) box.dataset.updateMs = (performance.now() - at).toFixed(1);
    }
    onUpdated();
  };
  const run = (): void => {
    due = false;
    if (gone) return;
    const { graph, box } = view();
    live.update(graph, graph !== given);
    given = graph;
    const at = src.picture.getState().timing.eventAt;
    if (graph !== null && box !== null && at !== null) box.dataset.applyMs = (performance.now() - at).toFixed(1);
    if (!painting) {
      painting = true;
      schedule.frame(painted);
    }
  };
  const due1 = (): void => {
    if (due) return;
    due = true;
    schedule.soon(run);
  };
  const offMoves = src.picture.getState().onChange(due1);
  const offSessions = src.sessions.subscribe(due1);
  due1();
  return () => {
    gone = true;
    offMoves();
    offSessions();
  };
}

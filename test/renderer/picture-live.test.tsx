// @vitest-environment happy-dom
// The picture's live counts: history moves applied in place (a new
// message, held → approved), exactly once when they race a fetch (before its
// answer, after it, either side of its cursor), and every move that cannot
// be placed falling back to a fetch; the view patches only the moved edge and
// rebuilds when it cannot.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createStores } from '../../renderer/stores/stores.js';
import { createPictureStore } from '../../renderer/stores/picture.js';
import { applyMove, countsOf, type Counts, type EdgeRow } from '../../renderer/features/picture/counts.js';
import type { GraphFactory, GraphView } from '../../renderer/features/picture/graph.js';
import { PictureView } from '../../renderer/features/picture/picture.js';
import type { HistoryEdgesView } from '../../core/protocol/methods.js';
import { agentRow } from './rows.js';
import type { PictureMove } from '../../core/protocol/events.js';
import { fakeBridge } from '../fakes/bridge.js';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const EPOCH = 'run-1';
const side = (name: string) => ({
  from: { sessionId: `id-${name}`, name, address: `uds:/r/${name}.sock`, team: null },
});
const to = (name: string) => ({ sessionId: `id-${name}`, name, team: null, address: `uds:/r/${name}.sock` });
const edgeRow = (from: string, recv: string, outcome: string, count: number, last = 10): EdgeRow => ({
  ...side(from),
  to: to(recv),
  outcome,
  count,
  last,
});
const view = (edges: EdgeRow[], seq: number, extra: Partial<HistoryEdgesView> = {}): HistoryEdgesView => ({
  since: 0,
  edges,
  truncated: false,
  cursor: { epoch: EPOCH, seq },
  ...extra,
});
let msg = 0;
const move = (
  seq: number,
  from: string,
  recv: string,
  outcome: string,
  previous: string | null,
  at = 20,
): PictureMove => ({
  epoch: EPOCH,
  seq,
  kind: 'count',
  msgId: `m${++msg}`,
  at,
  ...side(from),
  to: to(recv),
  outcome,
  previous,
});
/** The counts as `from>to:outcome` → count, for comparing. */
const flat = (c: Counts) =>
  Object.fromEntries([...c.rows.values()].map((r) => [`${r.from.name}>${r.to.name}:${r.outcome}`, r.count]));

describe('applying history moves to the counts', () => {
  it('applies each move to the counts in place', () => {
    const c = countsOf(view([edgeRow('api', 'db', 'queued', 2), edgeRow('api', 'yolo', 'held', 1)], 7));
    expect(applyMove(c, move(8, 'api', 'db', 'queued', null)).kind, 'a new message').toBe('moved');
    expect(applyMove(c, move(9, 'api', 'yolo', 'approved', 'held')).kind, 'a held one approved').toBe('moved');
    expect(applyMove(c, move(10, 'db', 'api', 'queued', null)).kind).toBe('moved');
    expect(flat(c)).toEqual({ 'api>db:queued': 3, 'api>yolo:approved': 1, 'db>api:queued': 1 });
    expect(c.cursor).toEqual({ epoch: EPOCH, seq: 10 });
  });

  it('skips what the counts already hold and what is older than the window', () => {
    const c = countsOf(view([edgeRow('api', 'db', 'queued', 2)], 7, { since: 15 }));
    expect(applyMove(c, move(7, 'api', 'db', 'queued', null)).kind).toBe('skip'); // in the answer already
    expect(applyMove(c, move(8, 'api', 'db', 'queued', null, 10)).kind).toBe('skip'); // before the window
    expect(applyMove(c, move(9, 'api', 'db', 'queued', null, 16)).kind).toBe('moved');
    expect(flat(c)).toEqual({ 'api>db:queued': 3 });
  });

  it('answers refetch, changing nothing, for a move it cannot place', () => {
    const c = countsOf(view([edgeRow('api', 'db', 'queued', 1)], 7));
    const before = JSON.stringify([...c.rows.values()]);
    expect(applyMove(c, move(9, 'api', 'db', 'queued', null)).kind).toBe('refetch'); // a gap: seq 8 was missed
    expect(applyMove(c, { ...move(8, 'api', 'db', 'queued', null), epoch: 'run-2' }).kind).toBe('refetch'); // hub restarted
    expect(applyMove(c, { epoch: EPOCH, seq: 8, kind: 'reset' }).kind).toBe('refetch');
    expect(applyMove(c, move(8, 'api', 'db', 'approved', 'held')).kind).toBe('refetch'); // no held one to move
    expect(applyMove(c, { epoch: EPOCH, seq: 8, kind: 'count' }).kind).toBe('refetch'); // malformed
    expect(applyMove(c, null).kind).toBe('refetch');
    expect(JSON.stringify([...c.rows.values()])).toBe(before);
    expect(c.cursor.seq).toBe(7);
    // A truncated answer left the oldest rows out: their messages are not drawn, so their moves are not either.
    const t = countsOf(view([edgeRow('api', 'db', 'queued', 1)], 7, { truncated: true }));
    expect(applyMove(t, move(8, 'api', 'db', 'approved', 'held')).kind).toBe('skip');
    expect(flat(t)).toEqual({ 'api>db:queued': 1 });
  });
});

/** The shared fake bridge with the sessions the picture lists; `calls`: the picture.edges fetches' inputs. */
function pictureBridge(answer: (i: Record<string, unknown>) => unknown) {
  const f = fakeBridge({
    'sessions.list': { rows: ['api', 'db', 'yolo'].map((n) => agentRow(n)) },
    'picture.edges': answer,
  });
  return {
    bridge: f.bridge,
    get calls() {
      return f.calls.filter(([op]) => op === 'picture.edges').map(([, input]) => input);
    },
    emit: (m: PictureMove) => f.emit({ type: 'history.moved', move: m }),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('a move racing a fetch', () => {
  it('counts each move once: those the answer includes are skipped, the others applied over it', async () => {
    // The hub has 2 api→db messages (moves 1–2). While the fetch is out, moves 3 and 4 arrive; the hub's
    // answer was taken after move 3 (cursor 3, so it counts 3 messages); move 5 arrives after the answer.
    let resolve: (v: HistoryEdgesView) => void = () => undefined;
    const f = pictureBridge(() => new Promise<HistoryEdgesView>((r) => (resolve = r)));
    const store = createPictureStore(f.bridge);
    store.getState().activate();
    f.emit(move(3, 'api', 'db', 'queued', null));
    f.emit(move(4, 'api', 'yolo', 'held', null));
    resolve(view([edgeRow('api', 'db', 'queued', 3)], 3));
    await tick();
    f.emit(move(3, 'api', 'db', 'queued', null)); // a late copy of one the answer had: skipped
    f.emit(move(5, 'api', 'yolo', 'approved', 'held'));
    expect(flat(store.getState().counts)).toEqual({ 'api>db:queued': 3, 'api>yolo:approved': 1 });
    expect(f.calls).toHaveLength(1); // and no second fetch
  });

  it('fetches again when a move kept during the fetch does not follow its answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }); // the gap between fetches
    const answers = [view([edgeRow('api', 'db', 'queued', 1)], 3), view([edgeRow('api', 'db', 'queued', 2)], 9)];
    let resolve: (v: HistoryEdgesView) => void = () => undefined;
    const f = pictureBridge(() => new Promise<HistoryEdgesView>((r) => (resolve = r)));
    const store = createPictureStore(f.bridge);
    store.getState().activate();
    f.emit(move(5, 'api', 'db', 'queued', null)); // move 4 never came
    resolve(answers[0]!);
    await vi.advanceTimersByTimeAsync(300); // the refetch waits out the gap between fetches
    expect(f.calls).toHaveLength(2);
    resolve(answers[1]!);
    await vi.advanceTimersByTimeAsync(0);
    expect(flat(store.getState().counts)).toEqual({ 'api>db:queued': 2 });
  });
});

describe('the view, live', () => {
  it('gets the whole picture when its graph is ready after the data, then patches only the moved edge', async () => {
    const f = pictureBridge(() => view([edgeRow('api', 'db', 'queued', 6), edgeRow('api', 'yolo', 'held', 1)], 40));
    const stores = createStores(f.bridge);
    const applied: number[] = [];
    const patched: string[][] = [];
    const dots: string[][] = [];
    let ready: () => void = () => undefined;
    const slow: GraphFactory = () =>
      new Promise<GraphView>((r) => {
        ready = () =>
          r({
            apply: (p) => void applied.push(p.edges.size),
            patch: (_p, keys, nodes = []) => {
              patched.push([...keys]);
              dots.push([...nodes]);
            },
            setPalette: () => undefined,
            dispose: () => undefined,
          });
      });
    const frames: Array<() => void> = [];
    const soon: Array<() => void> = [];
    const schedule = { frame: (fn: () => void) => void frames.push(fn), soon: (fn: () => void) => void soon.push(fn) };
    const runSoon = () => act(() => soon.splice(0).forEach((fn) => fn()));
    const runFrames = () => act(() => frames.splice(0).forEach((fn) => fn()));
    render(
      <PictureView
        stores={stores}
        graph={slow}
        schedule={schedule}
        onOpenSession={() => undefined}
        onOpenConversation={() => undefined}
      />,
    );
    const settleAll = async () => {
      for (let i = 0; i < 3; i++) {
        await act(tick);
        runSoon();
        runFrames();
      }
    };
    await act(() => stores.sessions.getState().load());
    await settleAll();
    expect(screen.getByTestId('picture-summary').textContent).toBe('3 sessions, 7 messages in the last hour');
    await act(async () => ready());
    await settleAll();
    expect(applied).toEqual([2]); // the data came first: the new graph still gets all of it

    // A move is in the graph in the next task (no frame away), patching its one edge; nothing refetched.
    f.emit(move(41, 'api', 'yolo', 'approved', 'held'));
    runSoon();
    expect(patched).toEqual([['uds:/r/api.sock>uds:/r/yolo.sock']]);
    // Two more in the same task: one patch with both edges; the list follows once, on the frame.
    f.emit(move(42, 'db', 'api', 'queued', null));
    f.emit(move(43, 'api', 'db', 'queued', null));
    runSoon();
    expect(patched.at(-1)).toEqual(['uds:/r/db.sock>uds:/r/api.sock', 'uds:/r/api.sock>uds:/r/db.sock']);
    expect(frames).toHaveLength(1); // one frame for all three
    runFrames();
    expect(screen.getByTestId('total-held').textContent).toBe('0');
    expect(screen.getByTestId('picture-summary').textContent).toBe('3 sessions, 9 messages in the last hour');
    expect(f.calls).toHaveLength(1);
    await settleAll();

    // The sessions list reloads: an inbox depth draws nothing; a dot turning busy is patched alone.
    const rows = stores.sessions.getState().data;
    act(() => stores.sessions.setState({ data: rows.map((r) => ({ ...r, inboxDepth: 3 })) }));
    await settleAll();
    act(() => stores.sessions.setState({ data: rows.map((r) => (r.name === 'db' ? { ...r, state: 'busy' } : r)) }));
    await settleAll();
    expect(applied).toEqual([2]);
    expect(dots.slice(2)).toEqual([[], ['uds:/r/db.sock']]);
    patched.length = 0;

    // A message from a session the picture has not drawn: rebuilt (an ended dot), not patched.
    f.emit(move(44, 'gone', 'db', 'queued', null));
    await settleAll();
    expect(applied).toEqual([2, 4]); // api→db, api→yolo, db→api and gone→db
    expect(patched).toHaveLength(0);
    expect(screen.getByTestId('picture-summary').textContent).toBe('4 sessions, 10 messages in the last hour');
  });
});

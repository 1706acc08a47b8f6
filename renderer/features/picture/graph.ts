// The port between the picture view and whatever draws the graph: apply a
// Picture (a diff inside) or patch some of its edges, recolour for light or
// dark, dispose. The real one
// (sigma.js, WebGL) is imported on demand so the app's first load does not
// pay for it; tests pass a fake. Colours come from the page's CSS variables.
import type { Picture, Tone } from './model.js';

export interface Palette extends Record<Tone, string> {
  /** Delivered lines when there are many: faded into the background (opaque), so the others stand out. */
  deliveredLine: string;
  heldPulse: string;
  busy: string;
  idle: string;
  ended: string;
  label: string;
}

export interface GraphEvents {
  onNode(key: string): void;
  onEdge(key: string): void;
}

export interface GraphView {
  /** Draws `p`: a diff over every node and edge (the layout runs again only when the sessions changed). */
  apply(p: Picture): void;
  /** Draws the edges of `p` named in `edges` and the dots in `nodes` (busy/idle), nothing else (a live update: O(changed)). */
  patch(p: Picture, edges: Iterable<string>, nodes?: Iterable<string>): void;
  setPalette(p: Palette): void;
  dispose(): void;
}

export type GraphFactory = (container: HTMLElement, events: GraphEvents, palette: Palette) => Promise<GraphView>;

/** Thrown when the page cannot draw (no WebGL): the view keeps its list. */
export class NoGraphics extends Error {
  constructor() {
    super('This window cannot draw the picture (WebGL is off); the list has the same.');
    this.name = 'NoGraphics';
  }
}

export const sigmaGraph: GraphFactory = async (container, events, palette) => {
  const probe = document.createElement('canvas');
  if (probe.getContext('webgl2') === null && probe.getContext('webgl') === null) throw new NoGraphics();
  const { createSigmaGraph } = await import('./sigma-graph.js');
  return createSigmaGraph(container, events, palette);
};

const FALLBACK: Palette = {
  delivered: '#2f9e57',
  deliveredLine: '#b6ddc4',
  queued: '#3b82c4',
  held: '#d99a00',
  heldPulse: '#ffd65c',
  refused: '#d9453b',
  dropped: '#8a8a94',
  busy: '#d99a00',
  idle: '#2f9e57',
  ended: '#a0a0a8',
  label: '#1d1d1f',
};

/** The palette in force for `el` (CSS variables `--picture-*`, light or dark). */
export function readPalette(el: Element): Palette {
  const css = getComputedStyle(el);
  const out = { ...FALLBACK };
  for (const k of Object.keys(FALLBACK) as Array<keyof Palette>) {
    const v = css.getPropertyValue(`--picture-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).trim();
    if (v !== '') out[k] = v;
  }
  return out;
}

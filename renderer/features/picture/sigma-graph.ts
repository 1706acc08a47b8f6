// The picture drawn with sigma.js (WebGL) over a graphology graph, laid out
// by graphology-layout's circle packing grouped by machine, then team. An
// update is a diff: only changed nodes and edges are touched, and the layout
// runs again only when the set of sessions changed (never for a message).
// Held lines pulse on an overlay (overlay.ts: no WebGL redraw per beat);
// edge picking is off (+30 % per render here), a click finds its line by
// distance instead. Loaded on demand (its own chunk).
import Graph from 'graphology';
import circlepack from 'graphology-layout/circlepack';
import Sigma from 'sigma';
import type { GraphEvents, GraphView, Palette } from './graph.js';
import { boxOf, groupCircles, type GroupCircle } from './groups.js';
import type { Picture, PictureEdge, PictureNode, Tone } from './model.js';
import { createPulseLayer, nearestSegment, type Segment } from './overlay.js';

const NODE_SIZE = 5; // px on screen at the fitted zoom; also each session's radius in the packing
const LAYOUT_SEED = 7; // the same sessions always get the same places
const MAX_EDGE_PX = 10; // the busiest line; 1 message is 1.5 px, each doubling adds 1.5
const CROWDED_LINES = 200; // beyond this many lines, delivered ones are drawn faded
const PULSE_EXTRA_PX = 3; // a held line's pulse is this much wider than the line
const LABEL_GAP_PX = 3; // between a dot and its label

interface NodeAttrs {
  x: number;
  y: number;
  size: number;
  color: string;
  label: string;
  machine: string;
  team: string;
  state: string;
  live: boolean;
}
interface EdgeAttrs {
  size: number;
  color: string;
  type: string;
  tone: string;
  count: number;
  zIndex: number;
}
/** What a person looks for is drawn on top: held, then stopped, then dropped, then the (faded) delivered. */
const Z_INDEX: Record<Tone, number> = { delivered: 0, queued: 1, dropped: 2, refused: 3, held: 4 };

/** A seeded random source so circle packing is stable between layouts. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

export function createSigmaGraph(container: HTMLElement, events: GraphEvents, palette: Palette): GraphView {
  const graph = new Graph<NodeAttrs, EdgeAttrs>({ type: 'directed', allowSelfLoops: true });
  let colours = palette;
  const sigma = new Sigma(graph, container, {
    renderEdgeLabels: false,
    enableEdgeEvents: false,
    hideEdgesOnMove: true,
    defaultEdgeType: 'arrow',
    labelFont: 'system-ui, sans-serif',
    labelSize: 12,
    labelColor: { color: colours.label },
    // Labels go left of a dot near the right edge, so none is cut off there.
    defaultDrawNodeLabel: (ctx, data, settings) => {
      if (data.label === null || data.label === '') return;
      ctx.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
      ctx.fillStyle = colours.label;
      const w = ctx.measureText(data.label).width;
      const fits = data.x + data.size + LABEL_GAP_PX + w <= ctx.canvas.width / (window.devicePixelRatio || 1);
      ctx.fillText(
        data.label,
        fits ? data.x + data.size + LABEL_GAP_PX : data.x - data.size - LABEL_GAP_PX - w,
        data.y + settings.labelSize / 3,
      );
    },
    labelRenderedSizeThreshold: 4,
    labelGridCellSize: 160,
    labelDensity: 0.7,
    zIndex: true,
    minEdgeThickness: 1,
    stagePadding: 24,
    allowInvalidContainer: true,
  });
  /** Each line's ends in the viewport as last drawn. */
  const segment = (key: string, width: number): Segment | null => {
    const from = sigma.getNodeDisplayData(graph.source(key));
    const to = sigma.getNodeDisplayData(graph.target(key));
    return from === undefined || to === undefined
      ? null
      : { key, from: sigma.framedGraphToViewport(from), to: sigma.framedGraphToViewport(to), width };
  };
  const lineAt = (x: number, y: number): string | null => {
    const lines: Segment[] = [];
    graph.forEachEdge((key, a) => {
      const s = segment(key, a.size);
      if (s !== null) lines.push(s);
    });
    return nearestSegment({ x, y }, lines);
  };
  // A second click soon after the first is a double click to sigma (its zoom): both open what they hit.
  for (const type of ['clickNode', 'doubleClickNode'] as const) {
    sigma.on(type, (e) => {
      e.preventSigmaDefault();
      events.onNode(e.node);
    });
  }
  for (const type of ['clickStage', 'doubleClickStage'] as const) {
    sigma.on(type, (e) => {
      const hit = lineAt(e.event.x, e.event.y);
      if (hit === null) return;
      e.preventSigmaDefault();
      events.onEdge(hit);
    });
  }
  sigma.on('enterNode', () => container.classList.add('pointing'));
  sigma.on('leaveNode', () => container.classList.remove('pointing'));

  // The box changes size with the window and when the empty state gives way.
  const resized = new ResizeObserver(() => sigma.refresh());
  resized.observe(container);

  // Team (and machine) outlines over the dots (the pointer goes through), placed after each render.
  const captions = document.createElement('div');
  captions.className = 'picture-groups';
  container.appendChild(captions);
  let groups: Array<{ el: HTMLElement; circle: GroupCircle }> = [];
  const placeCaptions = (): void => {
    for (const { el, circle } of groups) {
      const c = sigma.graphToViewport(circle);
      const r = Math.abs(sigma.graphToViewport({ x: circle.x + circle.r, y: circle.y }).x - c.x);
      el.style.transform = `translate(${Math.round(c.x - r)}px, ${Math.round(c.y - r)}px)`;
      el.style.width = el.style.height = `${Math.round(2 * r)}px`;
    }
  };
  const pulseLayer = createPulseLayer(container);
  let heldKeys: string[] = [];
  const drawPulse = (): void => {
    const lines: Segment[] = [];
    for (const key of heldKeys) {
      const s = graph.hasEdge(key) ? segment(key, graph.getEdgeAttribute(key, 'size') + PULSE_EXTRA_PX) : null;
      if (s !== null) lines.push(s);
    }
    pulseLayer.draw(lines, colours.heldPulse);
  };
  let renderStart = 0;
  sigma.on('beforeRender', () => (renderStart = performance.now()));
  sigma.on('afterRender', () => {
    placeCaptions();
    drawPulse();
    container.dataset.renderMs = (performance.now() - renderStart).toFixed(1); // the scale test prints it: where a frame goes
  });

  const nodeColour = (n: PictureNode): string =>
    !n.live ? colours.ended : n.state === 'busy' ? colours.busy : colours.idle;
  const layout = (): void => {
    circlepack.assign(graph, { hierarchyAttributes: ['machine', 'team'], rng: seeded(LAYOUT_SEED) });
    const circles = groupCircles(
      graph.mapNodes((_, a) => a),
      NODE_SIZE,
    );
    captions.replaceChildren();
    groups = circles.map((circle) => {
      const el = document.createElement('div');
      el.className = `picture-group ${circle.kind}`;
      const caption = document.createElement('span');
      caption.textContent = circle.label;
      el.appendChild(caption);
      captions.appendChild(el);
      return { el, circle };
    });
    sigma.setCustomBBox(boxOf(circles)); // the camera fits the outlines, not just the dots
  };

  const edgeSize = (count: number): number => Math.min(MAX_EDGE_PX, 1.5 + 1.5 * Math.log2(count));
  let crowded = false; // many lines: delivered ones fade so the others show
  const edgeAttrs = (e: PictureEdge): EdgeAttrs => ({
    size: edgeSize(e.count),
    color: e.tone === 'delivered' && crowded ? colours.deliveredLine : colours[e.tone],
    type: 'arrow',
    tone: e.tone,
    count: e.count,
    zIndex: Z_INDEX[e.tone],
  });
  const reduced = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

  let current: Picture | null = null;
  const held = new Set<string>();
  /** One edge of `p` into the graph: added, changed, or dropped when `p` no longer has it. */
  const putEdge = (p: Picture, key: string): void => {
    const e = p.edges.get(key);
    if (e === undefined) {
      if (graph.hasEdge(key)) graph.dropEdge(key);
      held.delete(key);
      return;
    }
    if (e.tone === 'held') held.add(key);
    else held.delete(key);
    const attrs = edgeAttrs(e);
    if (!graph.hasEdge(key)) graph.addDirectedEdgeWithKey(key, e.from, e.to, attrs);
    else {
      const old = graph.getEdgeAttributes(key);
      if (old.tone !== attrs.tone || old.count !== attrs.count || old.color !== attrs.color)
        graph.mergeEdgeAttributes(key, attrs);
    }
  };
  const pulse = (): void => {
    heldKeys = [...held];
    container.dataset.pulsing = String(held.size > 0 && reduced?.matches !== true); // tests read it: the canvas cannot be
    drawPulse();
  };
  const view: GraphView = {
    apply(p) {
      current = p;
      let moved = false;
      graph.forEachNode((key) => {
        if (!p.nodes.has(key)) {
          graph.dropNode(key);
          moved = true;
        }
      });
      for (const n of p.nodes.values()) {
        const attrs = {
          size: NODE_SIZE,
          color: nodeColour(n),
          label: `${n.label} · ${n.agent}`,
          machine: n.machine,
          team: n.team,
          state: n.state,
          live: n.live,
        };
        if (!graph.hasNode(n.key)) {
          graph.addNode(n.key, { ...attrs, x: 0, y: 0 });
          moved = true;
        } else {
          const old = graph.getNodeAttributes(n.key);
          if (old.machine !== n.machine || old.team !== n.team) moved = true;
          if (
            old.color !== attrs.color ||
            old.label !== attrs.label ||
            old.machine !== n.machine ||
            old.team !== n.team
          )
            graph.mergeNodeAttributes(n.key, attrs);
        }
      }
      graph.forEachEdge((key) => {
        if (!p.edges.has(key)) graph.dropEdge(key);
      });
      crowded = p.edges.size > CROWDED_LINES;
      held.clear();
      for (const key of p.edges.keys()) putEdge(p, key);
      if (moved) layout();
      pulse();
    },
    patch(p, edges, nodes = []) {
      // Crossing the crowded line recolours every delivered line: that is a full apply.
      if (current === null || p.edges.size > CROWDED_LINES !== crowded) return view.apply(p);
      current = p;
      for (const key of nodes) {
        const n = p.nodes.get(key);
        if (n !== undefined && graph.hasNode(key))
          graph.mergeNodeAttributes(key, { color: nodeColour(n), state: n.state });
      }
      for (const key of edges) putEdge(p, key);
      pulse();
    },
    setPalette(next) {
      colours = next;
      sigma.setSetting('labelColor', { color: next.label });
      if (current === null) return;
      const p = current;
      graph.forEachNode((key) => {
        const n = p.nodes.get(key);
        if (n !== undefined) graph.setNodeAttribute(key, 'color', nodeColour(n));
      });
      graph.forEachEdge((key) => {
        const e = p.edges.get(key);
        if (e !== undefined) graph.mergeEdgeAttributes(key, edgeAttrs(e));
      });
    },
    dispose() {
      resized.disconnect();
      sigma.kill();
      pulseLayer.remove();
      captions.remove();
    },
  };
  return view;
}

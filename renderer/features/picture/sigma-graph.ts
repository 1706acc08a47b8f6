// The picture drawn with sigma.js (WebGL) over a graphology graph, laid out
// by graphology-layout's circle packing grouped by machine, then team. An
// update is a diff: only changed nodes and edges are touched, and the layout
// runs again only when the set of sessions changed (never for a message).
// Held lines pulse on an overlay (overlay.ts: no WebGL redraw per beat);
// edge picking is off (it doubles every render), a click finds its line by
// distance instead. Loaded on demand (its own chunk).
import Graph from 'graphology';
import circlepack from 'graphology-layout/circlepack';
import Sigma from 'sigma';
import type { GraphEvents, GraphView, Palette } from './graph.js';
import type { Picture, PictureEdge, PictureNode } from './model.js';
import { createPulseLayer, nearestSegment, type Segment } from './overlay.js';

const NODE_SIZE = 5; // px on screen at the fitted zoom; also each session's radius in the packing
const LAYOUT_SEED = 7; // the same sessions always get the same places
const MAX_EDGE_PX = 10; // the busiest line; 1 message is 2 px, each doubling adds 1.5
const PULSE_EXTRA_PX = 3; // a held line's pulse is this much wider than the line
const LABEL_GAP_PX = 3; // between a dot and its label
const GROUP_PAD_PX = 14; // room between a team's outermost dots and its box

interface NodeAttrs { x: number; y: number; size: number; color: string; label: string; machine: string; team: string; state: string; live: boolean }
interface EdgeAttrs { size: number; color: string; type: string; tone: string; count: number }

/** A seeded random source so circle packing is stable between layouts. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

export function createSigmaGraph(container: HTMLElement, events: GraphEvents, palette: Palette): GraphView {
  const graph = new Graph<NodeAttrs, EdgeAttrs>({ type: 'directed', allowSelfLoops: true });
  let colours = palette;
  const sigma = new Sigma(graph, container, {
    renderEdgeLabels: false, enableEdgeEvents: false, hideEdgesOnMove: true, defaultEdgeType: 'arrow', labelFont: 'system-ui, sans-serif', labelSize: 12,
    labelColor: { color: colours.label },
    // Labels go left of a dot near the right edge, so none is cut off there.
    defaultDrawNodeLabel: (ctx, data, settings) => {
      if (data.label === null || data.label === '') return;
      ctx.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
      ctx.fillStyle = colours.label;
      const w = ctx.measureText(data.label).width;
      const fits = data.x + data.size + LABEL_GAP_PX + w <= ctx.canvas.width / (window.devicePixelRatio || 1);
      ctx.fillText(data.label, fits ? data.x + data.size + LABEL_GAP_PX : data.x - data.size - LABEL_GAP_PX - w, data.y + settings.labelSize / 3);
    }, labelRenderedSizeThreshold: 4, zIndex: true, minEdgeThickness: 1, stagePadding: 60, allowInvalidContainer: true,
  });
  /** Each line's ends in the viewport as last drawn. */
  const segment = (key: string, width: number): Segment | null => {
    const from = sigma.getNodeDisplayData(graph.source(key));
    const to = sigma.getNodeDisplayData(graph.target(key));
    return from === undefined || to === undefined ? null : { key, from: sigma.framedGraphToViewport(from), to: sigma.framedGraphToViewport(to), width };
  };
  sigma.on('clickNode', (e) => events.onNode(e.node));
  sigma.on('clickStage', (e) => {
    const lines: Segment[] = [];
    graph.forEachEdge((key, a) => {
      const s = segment(key, a.size);
      if (s !== null) lines.push(s);
    });
    const hit = nearestSegment({ x: e.event.x, y: e.event.y }, lines);
    if (hit !== null) events.onEdge(hit);
  });
  sigma.on('enterNode', () => container.classList.add('pointing'));
  sigma.on('leaveNode', () => container.classList.remove('pointing'));

  // The box changes size with the window and when the empty state gives way.
  const resized = new ResizeObserver(() => sigma.refresh());
  resized.observe(container);

  // Group captions (machine, team) over the packed circles, placed after each render.
  const captions = document.createElement('div');
  captions.className = 'picture-groups';
  container.appendChild(captions);
  let groups: Array<{ el: HTMLElement; keys: string[] }> = [];
  const placeCaptions = (): void => {
    for (const g of groups) {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const key of g.keys) {
        const d = sigma.getNodeDisplayData(key);
        if (d === undefined) continue;
        const v = sigma.framedGraphToViewport(d);
        [x0, y0, x1, y1] = [Math.min(x0, v.x), Math.min(y0, v.y), Math.max(x1, v.x), Math.max(y1, v.y)];
      }
      const pad = g.el.classList.contains('machine') ? GROUP_PAD_PX * 2 : GROUP_PAD_PX;
      g.el.style.transform = `translate(${Math.round(x0 - pad)}px, ${Math.round(y0 - pad)}px)`;
      g.el.style.width = `${Math.round(x1 - x0 + 2 * pad)}px`;
      g.el.style.height = `${Math.round(y1 - y0 + 2 * pad)}px`;
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
  sigma.on('afterRender', () => {
    placeCaptions();
    drawPulse();
  });

  const nodeColour = (n: PictureNode): string => (!n.live ? colours.ended : n.state === 'busy' ? colours.busy : colours.idle);
  const layout = (): void => {
    circlepack.assign(graph, { hierarchyAttributes: ['machine', 'team'], rng: seeded(LAYOUT_SEED) });
    // A box per team (and per machine once there are several), drawn behind the dots, captioned.
    const byGroup = new Map<string, { label: string; kind: 'machine' | 'team'; keys: string[] }>();
    const machines = new Set<string>();
    graph.forEachNode((key, a) => {
      machines.add(a.machine);
      for (const [gkey, label, kind] of [[`m:${a.machine}`, a.machine, 'machine'], [`t:${a.machine}/${a.team}`, a.team, 'team']] as const) {
        const g = byGroup.get(gkey) ?? { label, kind, keys: [] };
        g.keys.push(key);
        byGroup.set(gkey, g);
      }
    });
    captions.replaceChildren();
    groups = [...byGroup.values()].filter((g) => g.kind === 'team' || machines.size > 1).map((g) => {
      const el = document.createElement('div');
      el.className = `picture-group ${g.kind}`;
      const caption = document.createElement('span');
      caption.textContent = g.label;
      el.appendChild(caption);
      captions.appendChild(el);
      return { el, keys: g.keys };
    });
  };

  const edgeSize = (count: number): number => Math.min(MAX_EDGE_PX, 2 + 1.5 * Math.log2(count));
  const edgeAttrs = (e: PictureEdge): EdgeAttrs => ({ size: edgeSize(e.count), color: colours[e.tone], type: 'arrow', tone: e.tone, count: e.count });
  const reduced = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

  let current: Picture | null = null;
  return {
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
        const attrs = { size: NODE_SIZE, color: nodeColour(n), label: `${n.label} · ${n.agent}`, machine: n.machine, team: n.team, state: n.state, live: n.live };
        if (!graph.hasNode(n.key)) {
          graph.addNode(n.key, { ...attrs, x: 0, y: 0 });
          moved = true;
        } else {
          const old = graph.getNodeAttributes(n.key);
          if (old.machine !== n.machine || old.team !== n.team) moved = true;
          if (old.color !== attrs.color || old.label !== attrs.label || old.machine !== n.machine || old.team !== n.team) graph.mergeNodeAttributes(n.key, attrs);
        }
      }
      graph.forEachEdge((key) => {
        if (!p.edges.has(key)) graph.dropEdge(key);
      });
      const held: string[] = [];
      for (const e of p.edges.values()) {
        if (e.tone === 'held') held.push(e.key);
        const attrs = edgeAttrs(e);
        if (!graph.hasEdge(e.key)) graph.addDirectedEdgeWithKey(e.key, e.from, e.to, attrs);
        else {
          const old = graph.getEdgeAttributes(e.key);
          if (old.tone !== attrs.tone || old.count !== attrs.count || old.color !== attrs.color) graph.mergeEdgeAttributes(e.key, attrs);
        }
      }
      if (moved) layout();
      heldKeys = held;
      container.dataset.pulsing = String(held.length > 0 && reduced?.matches !== true); // tests read it: the canvas cannot be
      drawPulse();
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
}

// What sigma would do only by redrawing the whole WebGL scene: the held
// lines' pulse and finding the line under a click. The pulse is a 2D canvas
// over the graph with just the held lines, faded in and out by a CSS
// animation (the compositor's work: no redraw per beat, nothing with reduced
// motion); a click is matched to the nearest line by distance in the viewport.

/** A point in the viewport (CSS pixels). */
export interface Point {
  x: number;
  y: number;
}

export interface Segment {
  key: string;
  from: Point;
  to: Point;
  width: number;
}

const HIT_PX = 6; // how near a click must be to a line to open it

/** The key of the segment nearest `p` within HIT_PX (plus half its width), or null. */
export function nearestSegment(p: Point, segments: Iterable<Segment>): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const s of segments) {
    const dx = s.to.x - s.from.x;
    const dy = s.to.y - s.from.y;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - s.from.x) * dx + (p.y - s.from.y) * dy) / len2));
    const d = Math.hypot(p.x - (s.from.x + t * dx), p.y - (s.from.y + t * dy)) - s.width / 2;
    if (d <= HIT_PX && d < bestD) {
      bestD = d;
      best = s.key;
    }
  }
  return best;
}

/** The pulse layer: call draw() after each render with the held lines (none: it clears). */
export function createPulseLayer(container: HTMLElement): {
  draw(lines: readonly Segment[], colour: string): void;
  remove(): void;
} {
  const canvas = document.createElement('canvas');
  canvas.className = 'picture-pulse';
  canvas.setAttribute('aria-hidden', 'true');
  container.appendChild(canvas);
  return {
    draw(lines, colour) {
      const ratio = window.devicePixelRatio || 1;
      const w = container.clientWidth;
      const h = container.clientHeight;
      if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
        canvas.width = Math.round(w * ratio);
        canvas.height = Math.round(h * ratio);
        canvas.style.width = `${w}px`;
        canvas.style.height = `${h}px`;
      }
      const ctx = canvas.getContext('2d');
      if (ctx === null) return;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, w, h);
      ctx.strokeStyle = colour;
      ctx.lineCap = 'round';
      for (const l of lines) {
        ctx.lineWidth = l.width;
        ctx.beginPath();
        ctx.moveTo(l.from.x, l.from.y);
        ctx.lineTo(l.to.x, l.to.y);
        ctx.stroke();
      }
    },
    remove: () => canvas.remove(),
  };
}

// The outlines the picture draws around each team (and each machine once
// there are two): a circle enclosing its sessions' packed circles, in graph
// units, and the box that holds them all (the camera fits that, so no
// outline is cut off). Pure geometry over laid-out positions.

export interface Placed {
  x: number;
  y: number;
  machine: string;
  team: string;
}

export interface GroupCircle {
  key: string;
  label: string;
  kind: 'machine' | 'team';
  x: number;
  y: number;
  r: number;
}

/** Circles around each team and, with several machines, each machine; `radius` is one session's packed radius. */
export function groupCircles(nodes: Iterable<Placed>, radius: number): GroupCircle[] {
  const members = new Map<string, { label: string; kind: 'machine' | 'team'; pts: Placed[] }>();
  const machines = new Set<string>();
  for (const n of nodes) {
    machines.add(n.machine);
    for (const [key, label, kind] of [
      [`m:${n.machine}`, n.machine, 'machine'],
      [`t:${n.machine}/${n.team}`, n.team, 'team'],
    ] as const) {
      const g = members.get(key) ?? { label, kind, pts: [] };
      g.pts.push(n);
      members.set(key, g);
    }
  }
  const out: GroupCircle[] = [];
  for (const [key, g] of members) {
    if (g.kind === 'machine' && machines.size < 2) continue;
    const xs = g.pts.map((p) => p.x);
    const ys = g.pts.map((p) => p.y);
    const x = (Math.min(...xs) + Math.max(...xs)) / 2;
    const y = (Math.min(...ys) + Math.max(...ys)) / 2;
    const r = Math.max(...g.pts.map((p) => Math.hypot(p.x - x, p.y - y))) + radius * (g.kind === 'machine' ? 2 : 1);
    out.push({ key, label: g.label, kind: g.kind, x, y, r });
  }
  return out;
}

/** The box holding every circle (null when there is none). */
export function boxOf(circles: readonly GroupCircle[]): { x: [number, number]; y: [number, number] } | null {
  if (circles.length === 0) return null;
  return {
    x: [Math.min(...circles.map((c) => c.x - c.r)), Math.max(...circles.map((c) => c.x + c.r))],
    y: [Math.min(...circles.map((c) => c.y - c.r)), Math.max(...circles.map((c) => c.y + c.r))],
  };
}

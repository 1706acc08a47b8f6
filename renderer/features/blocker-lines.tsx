// Draws each "blocked by" as an arrow from the blocker's card to the
// blocked card, over the task board. Positions come from the laid-out
// cards (re-measured when the tasks or the board's size change); an arrow
// from a completed blocker is faint, an open one is in the warning colour.
import { useLayoutEffect, useState, type ReactNode, type RefObject } from 'react';
import type { TaskView } from '../../core/protocol/methods.js';

interface Line {
  key: string;
  d: string;
  open: boolean;
}

function measure(board: HTMLElement, tasks: TaskView[]): Line[] {
  const origin = board.getBoundingClientRect();
  const card = (id: string): DOMRect | undefined =>
    board.querySelector(`[data-task-id="${CSS.escape(id)}"]`)?.getBoundingClientRect();
  const lines: Line[] = [];
  for (const t of tasks) {
    const to = card(t.id);
    if (to === undefined) continue;
    for (const b of t.blockedBy) {
      const from = card(b);
      if (from === undefined) continue;
      const y1 = from.top + from.height / 2 - origin.top;
      const y2 = to.top + to.height / 2 - origin.top;
      const open = tasks.find((x) => x.id === b)?.status !== 'completed';
      let d: string;
      if (Math.abs(from.left - to.left) < 8) {
        // Same column: a bracket on the cards' left edge.
        const x = from.left - origin.left;
        d = `M${x},${y1} C${x - 28},${y1} ${x - 28},${y2} ${x},${y2}`;
      } else {
        const leftToRight = from.left < to.left;
        const x1 = (leftToRight ? from.right : from.left) - origin.left;
        const x2 = (leftToRight ? to.left : to.right) - origin.left;
        const bend = Math.max(24, Math.abs(x2 - x1) / 2) * (leftToRight ? 1 : -1);
        d = `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`;
      }
      lines.push({ key: `${b}->${t.id}`, d, open });
    }
  }
  return lines;
}

export function BlockerLines({ board, tasks }: { board: RefObject<HTMLElement | null>; tasks: TaskView[] }): ReactNode {
  const [lines, setLines] = useState<Line[]>([]);
  useLayoutEffect(() => {
    const el = board.current;
    if (el === null) return;
    const update = (): void => setLines(measure(el, tasks));
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [board, tasks]);
  if (lines.length === 0) return null;
  return (
    <svg className="blocker-lines" aria-hidden="true" data-testid="blocker-lines">
      <defs>
        <marker
          id="blocker-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" />
        </marker>
      </defs>
      {lines.map((l) => (
        <path key={l.key} d={l.d} className={l.open ? 'open' : 'done'} markerEnd="url(#blocker-arrow)" />
      ))}
    </svg>
  );
}

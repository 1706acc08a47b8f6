// Dependencies between tasks (Claude Code's `blocks` / `blockedBy`): a new
// blocker→blocked edge is refused, with a coded TaskError and before anything
// is written, when it names a task that does not exist, makes a task block
// itself, or closes a cycle. Pure: the task list passes every task it read.

import { TaskError, type Task } from './task-file.js';

/** Refuses new blocker→blocked edges that name a missing task, block themselves, or close a cycle. */
export function checkEdges(all: Map<string, Task>, pairs: Array<[string, string]>): void {
  const next = new Map<string, Set<string>>();
  const edge = (from: string, to: string): void =>
    void (next.get(from) ?? next.set(from, new Set()).get(from)!).add(to);
  for (const t of all.values()) {
    for (const b of t.blocks) edge(t.id, b);
    for (const b of t.blockedBy) edge(b, t.id);
  }
  for (const [from, to] of pairs) {
    const missing = [from, to].find((x) => !all.has(x));
    if (missing !== undefined) throw new TaskError('blocker_not_found', `no task ${missing}`);
    if (from === to) throw new TaskError('blocker_self', `task ${from} cannot block itself`);
    edge(from, to);
  }
  for (const [from, to] of pairs) {
    // A cycle through this edge: `from` is reachable from `to`.
    const seen = new Set<string>();
    const stack = [to];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (at === from) throw new TaskError('blocker_cycle', `task ${from} → ${to} would close a cycle`);
      if (seen.has(at)) continue;
      seen.add(at);
      for (const n of next.get(at) ?? []) stack.push(n);
    }
  }
}

// Project scope (crossSessionScope: "project"): sessions of unrelated
// repositories neither see nor message each other. A session's project is
// the top of its git work tree (the nearest folder up from its cwd with a
// `.git`), else its cwd. Two sessions are in each other's scope when both
// are machine-scoped, or when their projects are the same; a session that is
// project-scoped never reaches another machine. Pure but for the `.git`
// lookups, which are cached per folder.

import fs from 'node:fs';
import path from 'node:path';

export type CrossSessionScope = 'machine' | 'project';
const MAX_DEPTH = 64;
const roots = new Map<string, string>();

/** The project a cwd belongs to: its git work tree's top, else the folder itself. */
export function projectRoot(cwd: string): string {
  const start = path.resolve(cwd);
  const known = roots.get(start);
  if (known !== undefined) return known;
  let dir = start;
  let found = start;
  for (let i = 0; i < MAX_DEPTH; i++) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      found = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  if (roots.size > 10_000) roots.clear();
  roots.set(start, found);
  return found;
}

export interface ScopedParty {
  cwd: string;
  scope: CrossSessionScope;
  /** Another machine's session (its cwd is not on this machine). */
  remote?: boolean;
}

export function inScope(a: ScopedParty, b: ScopedParty): boolean {
  if (a.scope === 'machine' && b.scope === 'machine') return true;
  if (a.remote === true || b.remote === true) return false;
  return projectRoot(a.cwd) === projectRoot(b.cwd);
}

/** Why a send outside the scope is refused, in words the sender's agent reads. */
export function outOfScopeReason(target: string): string {
  return `${target} is in another project, and crossSessionScope is "project": sessions reach only their own project`;
}

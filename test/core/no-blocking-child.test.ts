// No blocking child process on the hub's loop, on any platform (a `ps` per
// session per second blocked it on macOS):
// nothing the hub imports (its sweep, its registration, the whole of
// core/index.ts) may reach execFileSync, spawnSync or execSync. The import
// graph is followed from the source, so a new path to a synchronous child
// process fails here whatever platform runs the test.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const BLOCKING = /\b(execFileSync|spawnSync|execSync)\b/;

/** Every source file reachable from `entry` by relative imports (static, dynamic and type-only alike). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [path.join(ROOT, entry)];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, '.ts'));
      if (fs.existsSync(target)) todo.push(target);
    }
  }
  return seen;
}

describe('no blocking child process on the hub’s loop', () => {
  it.each(['core/host/sweep.ts', 'core/index.ts'])(
    'nothing reachable from %s names a synchronous child process',
    (entry) => {
      const files = reachable(entry);
      expect(files.size).toBeGreaterThan(entry === 'core/index.ts' ? 50 : 5);
      const offenders = [...files]
        .filter((f) => BLOCKING.test(fs.readFileSync(f, 'utf8').replace(/^\s*\/\/.*$/gm, '')))
        .map((f) => path.relative(ROOT, f));
      expect(offenders).toEqual([]);
    },
  );
});

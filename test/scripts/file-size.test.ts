// The file-size check (scripts/check-file-size.mjs): a source file over the
// limit fails lint, a file on the grandfathered list may shrink but never
// grow, and one back under the limit must leave the list.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineCount, MAX_LINES, oversize } from '../../scripts/check-file-size.mjs';
import { tempDir } from '../helpers/temp.js';

function tree(files: Record<string, number>): string {
  const root = tempDir('sbt-size-');
  for (const [rel, lines] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), 'x;\n'.repeat(lines));
  }
  return root;
}

describe('the file-size check', () => {
  it('counts lines as an editor does', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb')]).toEqual([0, 1, 1, 2]);
  });

  it('fails a source file over the limit, and only sources', () => {
    const root = tree({ 'core/long.ts': MAX_LINES + 1, 'core/ok.ts': MAX_LINES, 'core/notes.md': 900 });
    expect(oversize(root, {}, ['core'])).toEqual([
      `core/long.ts: ${MAX_LINES + 1} lines, over ${MAX_LINES}: split it at a seam (one idea per file)`,
    ]);
  });

  // a.ts shrank (fine), b.ts grew (refused), c.ts fits now (must leave the list).
  it('holds a listed file to the length it had until it fits the limit', () => {
    const root = tree({ 'core/a.ts': 400, 'core/b.ts': 410, 'core/c.ts': 200 });
    const over = { 'core/a.ts': 405, 'core/b.ts': 405, 'core/c.ts': 380 };
    expect(oversize(root, over, ['core']).sort()).toEqual([
      'core/b.ts: 410 lines, longer than the 405 it had; it may only shrink',
      'core/c.ts: 200 lines now: take it off OVER in scripts/check-file-size.mjs',
    ]);
  });
});

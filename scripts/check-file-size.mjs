// The file-size check (run by `npm run lint`): a source file of ours stays
// under about 300 lines — MAX_LINES, with a little room for the "about" — so
// that one file holds one idea a reader can keep in mind. Files that were
// already longer when the check came in are listed in OVER with the length
// they had: each may shrink, none may grow, and a listed file that is back
// under the limit must leave the list (the check says so). Exits 1 naming
// each file. `oversize` is exported for the test.
import fs from 'node:fs';
import path from 'node:path';

export const MAX_LINES = 320;
/** Sources the check covers: our code, not tests, fixtures or builds. */
export const SOURCE_DIRS = ['core', 'cli', 'electron', 'preload', 'renderer', 'scripts'];
const SOURCE = /\.(ts|tsx|mjs|cjs|js)$/;

/** Longer than MAX_LINES, each with its length then: it may only shrink. Empty now; kept for a file that must wait. */
export const OVER = {};

function* sources(root, dir) {
  let entries;
  try {
    entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) yield* sources(root, rel);
    } else if (e.isFile() && SOURCE.test(e.name)) yield rel;
  }
}

/** Lines of a text as an editor counts them (a final newline ends the last line, it does not start one). */
export function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** What is wrong under `root`: files over the limit, listed files that grew, listed files no longer over. */
export function oversize(root, over = OVER, dirs = SOURCE_DIRS) {
  const problems = [];
  for (const dir of dirs) {
    for (const rel of sources(root, dir)) {
      const lines = lineCount(fs.readFileSync(path.join(root, rel), 'utf8'));
      const known = over[rel];
      if (known === undefined && lines > MAX_LINES)
        problems.push(`${rel}: ${lines} lines, over ${MAX_LINES}: split it at a seam (one idea per file)`);
      else if (known !== undefined && lines > known)
        problems.push(`${rel}: ${lines} lines, longer than the ${known} it had; it may only shrink`);
      else if (known !== undefined && lines <= MAX_LINES)
        problems.push(`${rel}: ${lines} lines now: take it off OVER in scripts/check-file-size.mjs`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = oversize(process.cwd());
  for (const p of problems) console.error(p);
  process.exit(problems.length > 0 ? 1 : 0);
}

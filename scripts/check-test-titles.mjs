// The test-title check (run by `npm run lint`): a test's title names one
// behaviour, so a red test says what broke. A title that strings together
// more than MAX_CLAUSES clauses — parts split at `;`, `, `, ` and `, ` — `
// or `: ` — chains behaviours: split the test, or keep one scenario whose
// title names what it proves and give each step's assertion a message.
// Text in parentheses, backticks or quotes is one clause (a list of inputs
// is not a list of behaviours). A heuristic: it catches a chain, it does not
// judge a title. Exits 1 naming each title. `clauses` and `longTitles` are
// exported for the test.
import fs from 'node:fs';
import path from 'node:path';

export const MAX_CLAUSES = 4;
const TEST_FILE = /\.(test|e2e|agents|interop)\.tsx?$|\/scenarios\/[^/]+\.ts$/;
/** `it(`/`test(` (with .each/.skipIf/.runIf/.fails and friends) and the quoted title that opens its call. */
const TITLE = /\b(?:it|test)(?:\.\w+(?:\([^()]*\))?)*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

/** The clauses of a title, after the text in parentheses, backticks and quotes is folded to one word. */
export function clauses(title) {
  const folded = title
    .replace(/\([^()]*\)/g, 'x')
    .replace(/`[^`]*`/g, 'x')
    .replace(/"[^"]*"/g, 'x')
    .replace(/\$\{[^}]*\}/g, 'x');
  return folded.split(/;|, | and | — |: /).filter((c) => c.trim().length > 0);
}

function* testFiles(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'fixtures' && !e.name.startsWith('.')) yield* testFiles(full);
    } else if (TEST_FILE.test(full)) yield full;
  }
}

/** Titles under `root`/test with more than MAX_CLAUSES clauses, as `file: title`. */
export function longTitles(root) {
  const problems = [];
  for (const file of testFiles(path.join(root, 'test'))) {
    const rel = path.relative(root, file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(TITLE)) {
      const n = clauses(m[2]).length;
      if (n > MAX_CLAUSES) problems.push(`${rel}: "${m[2]}" chains ${n} clauses: one behaviour per title`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = longTitles(process.cwd());
  for (const p of problems) console.error(p);
  process.exit(problems.length > 0 ? 1 : 0);
}

// The test-title check (scripts/check-test-titles.mjs): a title chaining more
// than MAX_CLAUSES clauses fails lint, wherever the test lives; a list of
// inputs in parentheses, backticks or quotes is one clause.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clauses, longTitles, MAX_CLAUSES } from '../../scripts/check-test-titles.mjs';
import { tempDir } from '../helpers/temp.js';

function tree(files: Record<string, string>): string {
  const root = tempDir('sbt-titles-');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** A title test/core/sessions.test.ts had: five behaviours in one, so a red run said little. */
const CHAINED = 'registers with a derived name, ref and uds address; lists, renames, changes state and mode';

describe('the test-title check', () => {
  it('counts the clauses a title strings together', () => {
    expect(clauses(CHAINED).length).toBeGreaterThan(MAX_CLAUSES);
    expect(clauses('is refused and nothing is written')).toHaveLength(2);
  });

  it('counts a list in parentheses, backticks or quotes as one clause', () => {
    expect(clauses('request targets (//[, //%zz, //x:99999) answer 400')).toHaveLength(1);
    expect(clauses('refuses `a, b, c, d, e` and "x, y, z"')).toHaveLength(2);
  });

  it('fails a chained title in any test file, whichever way the test is declared', () => {
    const root = tree({
      'test/core/a.test.ts': `it('${CHAINED}', () => {});\nit.each([1])('one thing %s', () => {});\n`,
      'test/agents/b.agents.ts': `it.skipIf(x)("${CHAINED}", async () => {});\n`,
      'test/e2e/c.e2e.ts': `test(\`${CHAINED}\`, async () => {});\n`,
    });
    expect(
      longTitles(root)
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['test/agents/b.agents.ts', 'test/core/a.test.ts', 'test/e2e/c.e2e.ts']);
  });

  it('passes titles of one behaviour', () => {
    const root = tree({ 'test/core/a.test.ts': "it('a held message is released on approve', () => {});\n" });
    expect(longTitles(root)).toEqual([]);
  });
});

// Pointers resolve: every `docs/<file>.md#<anchor>`, markdown link and
// repository path in a comment or a doc names something in this repository
// (scripts/check-pointers.mjs, also run by `npm run lint`), nothing points at
// the notes beside the repository, and comments give reasons rather than the
// round of work that wrote them. Plain file reads; no network.
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenIn, checkPointers, commentsOf, slug } from '../scripts/check-pointers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;

/** A small fake repository for the rule tests. */
const FILES: Record<string, 'file' | 'dir'> = {
  'docs/design.md': 'file',
  'docs/decisions.md': 'file',
  'core/host/hub.ts': 'file',
  'core/host': 'dir',
  docs: 'dir',
  'README.md': 'file',
};
const ANCHORS = new Set(['7-inbound-policy', 'rules-with-lifetimes-for-held-messages-issue-28']);
const ports = { exists: (rel: string) => FILES[rel] ?? null, anchors: () => ANCHORS };
const broken = (text: string, file = 'core/x/y.ts'): string[] => brokenIn(text, file, ports);

describe('the repository', () => {
  it('has no pointer that does not resolve', () => {
    expect(checkPointers(ROOT)).toEqual([]);
  });
});

describe('anchors follow GitHub', () => {
  it.each([
    ['6. Held messages', '6-held-messages'],
    ['Signals (no signal ends the hub)', 'signals-no-signal-ends-the-hub'],
    ['The `serve --ui` bridge', 'the-serve---ui-bridge'],
    ['History views (issue 18: sparkline, agent_tool)', 'history-views-issue-18-sparkline-agent_tool'],
    ['A [linked](x.md) heading', 'a-linked-heading'],
  ])('%s → #%s', (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });

  it('skips fenced code and numbers repeated headings', () => {
    const md = '# A\n```\n# not a heading\n```\n## B\n## B\n';
    expect([...anchorsOf(md)]).toEqual(['a', 'b', 'b-1']);
  });
});

describe('comments are found, strings and URLs are not', () => {
  it('takes line and block comments with their line numbers', () => {
    const src = "const a = 'x // y';\n// one\nconst u = 'https://h/p'; /* two\nthree */ f();\n";
    expect(commentsOf(src)).toEqual([
      [2, ' one'],
      [3, ' two'],
      [4, 'three '],
    ]);
  });
});

describe('each kind of broken pointer is named', () => {
  it('a docs file or an anchor that is not there', () => {
    expect(broken('see docs/design.md#7-inbound-policy')).toEqual([]);
    expect(broken('see docs/design.md#6-held-messages')).toEqual([
      'docs/design.md#6-held-messages: no heading with the anchor #6-held-messages in docs/design.md',
    ]);
    expect(broken('see docs/gone.md')).toEqual(['docs/gone.md: no such file or folder in the repository']);
  });

  it('a repository path that moved', () => {
    expect(broken('built in core/host/hub.ts and core/host/.')).toEqual([]);
    expect(broken('see core/host/events.ts.')).toEqual([
      'core/host/events.ts.: no such file or folder in the repository',
    ]);
  });

  it('the old outside spec, its section numbers and the notes beside the repository', () => {
    expect(broken('(DESIGN.md §6)')).toEqual([
      'DESIGN.md §6: a section number does not resolve; cite a heading anchor',
    ]);
    expect(broken('as DESIGN §5 lists')).toHaveLength(1);
    expect(broken('the habits of STYLE.md')).toEqual(['STYLE.md: no such file in the repository']);
    expect(broken('from ../shared/tools/claude-peer')).toEqual([
      '../shared/tools/claude-peer: points outside the repository',
    ]);
    expect(broken('copied from shared/conformance/claude-code')).toHaveLength(1);
    expect(broken('[spec](../../DESIGN.md)', 'docs/x.md')).toContain('../../DESIGN.md: points outside the repository');
  });

  it('a section cited by a heading that is not there', () => {
    expect(broken('(docs/decisions.md, "Rules with lifetimes")')).toEqual([]);
    expect(broken('(docs/decisions.md, "Rules without lifetimes")')).toHaveLength(1);
  });

  it('markdown links, relative to the doc', () => {
    expect(
      broken('[c](design.md#7-inbound-policy) [r](../README.md) [s](#7-inbound-policy)', 'docs/design.md'),
    ).toEqual([]);
    expect(broken('[c](design.md#nope)', 'docs/x.md')).toHaveLength(1);
    expect(broken('[w](https://example.com/docs/a.md)', 'docs/x.md')).toEqual([]);
  });

  it('leaves alone what is not a path in this repository', () => {
    expect(
      broken('core/**/*.ts, cli/commands/*.ts, test/fixtures/hooks/<name>, ${dir}/x'),
      'globs and templates',
    ).toEqual([]);
    expect(
      broken('`google-gemini/gemini-cli/docs/hooks/reference.md`, node_modules/core/x.ts'),
      'other repositories and modules',
    ).toEqual([]);
  });
});

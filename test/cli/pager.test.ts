// The MCP server's inbox pager: what one tool result carries within the
// agent's tool-result budget, whole items first, an item too long for one
// result in parts; only items shown completely are acknowledged.
import { describe, expect, it } from 'vitest';
import { InboxPager, TOOL_TEXT_BUDGET } from '../../cli/agent/pager.js';
import type { InboxItem } from '../../core/protocol/methods.js';

const item = (id: string, text: string): InboxItem => ({ id, kind: 'message', text }) as unknown as InboxItem;
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('inbox pager', () => {
  it('a 32 KB item under a Codex budget comes in parts that fit, rejoin to the whole, and is acknowledged only with the last', () => {
    const long = Array.from({ length: 600 }, (_, i) => `line ${i} — ü€😀 of a long report, every word of it`).join(
      '\n',
    );
    const pager = new InboxPager(TOOL_TEXT_BUDGET.codex);
    const pieces: string[] = [];
    const acked: string[][] = [];
    for (let n = 0; n < 20; n++) {
      const page = pager.page([item('a', long)], 'Checked the inbox.');
      expect(bytes(`Checked the inbox.\n\n${page.text!}`)).toBeLessThanOrEqual(TOOL_TEXT_BUDGET.codex);
      acked.push(page.done);
      const head = /\[Switchboard\] (?:Part \d+|Last part \(\d+\)) of a long item[^\n]*\n\n/.exec(page.text!)!;
      pieces.push(page.text!.slice(head.index + head[0].length));
      if (page.done.length > 0) break;
    }
    expect(bytes(long)).toBeGreaterThan(3 * TOOL_TEXT_BUDGET.codex);
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    expect(pieces.join('')).toBe(long);
    expect(acked.slice(0, -1).every((d) => d.length === 0)).toBe(true);
    expect(acked.at(-1)).toEqual(['a']);
  });

  it('a page takes whole items while they fit, and says how many more wait', () => {
    const pager = new InboxPager(9000);
    const page = pager.page(
      [item('a', 'x'.repeat(3000)), item('b', 'y'.repeat(3000)), item('c', 'z'.repeat(3000))],
      'ok',
    );
    expect(page.done).toEqual(['a', 'b']);
    expect(page.text).toContain('1 more item(s) from other sessions are waiting');
    expect(pager.page([], 'ok')).toEqual({ text: undefined, done: [] });
  });
});

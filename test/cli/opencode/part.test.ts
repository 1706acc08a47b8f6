// The id and form of the synthetic part our OpenCode plugin adds to a
// prompt: OpenCode's part-id form, sorting after the message's own parts.

import { describe, expect, it } from 'vitest';
import { partIdAfter, peerTextPart } from '../../../cli/opencode/part.js';

const FORM = /^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/;
const NOW = 1_800_000_000_000;
/** The id OpenCode 1.18.33 makes at `ms` with counter `n` (its Identifier.create, without the random tail). */
const opencodeId = (ms: number, n: number): string =>
  `prt_${((BigInt(ms) * 4096n + BigInt(n)) & 0xffffffffffffn).toString(16).padStart(12, '0')}ABCDEFGHIJKLMN`;

describe('OpenCode peer part', () => {
  it("an id has OpenCode's part-id form and sorts after a part made in the same millisecond", () => {
    const user = opencodeId(NOW, 7);
    const id = partIdAfter([user], NOW);
    expect(id).toMatch(FORM);
    expect(id > user).toBe(true);
  });

  it('an id sorts after a part whose id is ahead of the clock', () => {
    const ahead = opencodeId(NOW + 5000, 1);
    expect(partIdAfter([opencodeId(NOW, 1), ahead, undefined, 'not-an-id'], NOW) > ahead).toBe(true);
  });

  it("the part takes the user's part's session and message ids and is synthetic", () => {
    const user = { id: opencodeId(NOW, 1), sessionID: 'ses_a', messageID: 'msg_b', type: 'text', text: 'typed' };
    expect(peerTextPart(user, [user], 'peer')).toMatchObject({
      sessionID: 'ses_a',
      messageID: 'msg_b',
      type: 'text',
      text: 'peer',
      synthetic: true,
    });
  });

  it('a part without a message id gets none (OpenCode could not save it)', () => {
    expect(peerTextPart({ type: 'text', text: 'typed', sessionID: 'ses_a' }, [], 'peer')).toBeUndefined();
  });
});

// Presence across hub versions: protocol 1 came out knowing five agent
// kinds, and a hub of then refuses a whole presence that names another (its
// schema is an enum), so one Qwen Code session would have hidden every
// session of its machine from it. A newer kind is published as `other`, and
// a kind this hub does not know, from a newer hub, is read as `other`.
import { describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../../core/protocol/vocabulary.js';
import {
  decode,
  encode,
  Presence,
  PRESENCE_V1_AGENTS,
  PROTOCOL_VERSION,
  wireAgent,
} from '../../../core/protocol/relay-wire.js';

const session = (agent: string) => ({
  sessionId: 's1',
  name: 'api',
  agent,
  state: 'idle',
  stateSince: 1,
  cwd: '/w',
  inboxDepth: 0,
  canReceive: true,
});
const presence = (agent: string) => ({
  v: PROTOCOL_VERSION,
  machine: 'm',
  hubId: 'h',
  ttlMs: 15_000,
  sessions: [session(agent)],
});

describe('agent kinds in presence', () => {
  it('publishes every kind protocol 1 did not know as other', () => {
    const published = AGENT_KINDS.map(wireAgent);
    expect(published.every((a) => PRESENCE_V1_AGENTS.has(a))).toBe(true);
    expect(wireAgent('qwen')).toBe('other');
    expect(wireAgent('codex')).toBe('codex');
  });

  it('reads an agent kind it does not know as other, keeping the rest of the presence', () => {
    const p = decode(Presence, encode(presence('kimi')));
    expect(p?.sessions.map((s) => [s.name, s.agent])).toEqual([['api', 'other']]);
  });
});

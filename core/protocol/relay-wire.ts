// The relay's subjects and payloads between hubs over NATS. Every payload
// from the broker is untrusted: parsed with a bounded schema, unknown keys
// refused (we own this format). Machines are named by their display name;
// subjects use a token derived from it (NATS tokens cannot hold dots,
// spaces or wildcards).

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AGENT_KINDS, SESSION_STATES } from './vocabulary.js';

export const PROTOCOL_VERSION = 1;
export const MACHINE_MAX = 64;
/** How long the relay's store keeps mail for a machine that is away (core/relay/mail-store.ts). */
export const STORE_MS = 3 * 24 * 3600_000;

/** A subject token for a machine name: readable part plus a short hash (names may collide after cleaning). */
export function machineToken(machine: string): string {
  const clean = machine.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
  return `${clean}-${createHash('sha256').update(machine).digest('hex').slice(0, 8)}`;
}

export const SUBJECTS = {
  presence: (machine: string) => `sb.presence.${machineToken(machine)}`,
  presenceAll: 'sb.presence.*',
  presenceQuery: 'sb.presence-query',
  message: (machine: string) => `sb.msg.${machineToken(machine)}`,
  receipt: (machine: string) => `sb.receipt.${machineToken(machine)}`,
} as const;

/** `peer:<machine>/<session>`: a session on another machine (session = id, name or `name [ref]`). */
export function parsePeerAddress(address: string): { machine: string; session: string } | undefined {
  const m = /^peer:([^/]{1,64})\/(.{1,4096})$/.exec(address.trim());
  return m ? { machine: m[1] as string, session: m[2] as string } : undefined;
}

export function peerAddress(machine: string, sessionId: string): string {
  return `peer:${machine}/${sessionId}`;
}

const Str = (max: number) => z.string().max(max);
/** A machine name as the relay setting allows it: 1-64 characters, no "/" (it ends the machine part of a peer: address). */
const Machine = z.string().regex(/^[^/\s][^/]{0,63}$/);

/**
 * The agent kinds presence protocol 1 carried when it came out: a hub of then fails a presence naming another
 * whole, so a newer kind is published as `other` (wireAgent), and one read from a newer hub is taken as `other`.
 */
export const PRESENCE_V1_AGENTS: ReadonlySet<string> = new Set(['claude', 'codex', 'gemini', 'opencode', 'other']);
export const wireAgent = (agent: (typeof AGENT_KINDS)[number]): (typeof AGENT_KINDS)[number] =>
  PRESENCE_V1_AGENTS.has(agent) ? agent : 'other';

export const PresenceSession = z.strictObject({
  sessionId: Str(128),
  name: Str(256),
  agent: z.enum(AGENT_KINDS).catch('other'),
  state: z.enum(SESSION_STATES),
  stateSince: z.number(),
  cwd: Str(4096),
  inboxDepth: z.number().int().min(0),
  canReceive: z.boolean(),
});
export type PresenceSession = z.infer<typeof PresenceSession>;

export const Presence = z.strictObject({
  v: z.literal(PROTOCOL_VERSION),
  machine: Machine,
  hubId: Str(64),
  ttlMs: z.number().int().min(1000).max(3_600_000),
  sessions: z.array(PresenceSession).max(10_000),
});
export type Presence = z.infer<typeof Presence>;

export const RelayMessage = z.strictObject({
  v: z.literal(PROTOCOL_VERSION),
  msgId: Str(128),
  to: Str(4096).min(1),
  from: z.strictObject({ machine: Machine, sessionId: Str(128), name: Str(256) }),
  summary: Str(200).nullable(),
  body: z.string().max(1024 * 1024),
});
export type RelayMessage = z.infer<typeof RelayMessage>;

export const RELAY_STATUSES = ['queued', 'held', 'refused', 'dropped'] as const;

export const RelayAnswer = z.union([
  z.strictObject({
    v: z.literal(PROTOCOL_VERSION),
    status: z.enum(RELAY_STATUSES),
    reason: Str(4096).optional(),
    to: z.strictObject({ name: Str(256), sessionId: Str(128) }),
  }),
  z.strictObject({ v: z.literal(PROTOCOL_VERSION), error: Str(64), detail: Str(4096).optional() }),
]);
export type RelayAnswer = z.infer<typeof RelayAnswer>;

export const RelayReceipt = z.strictObject({
  v: z.literal(PROTOCOL_VERSION),
  origMsgId: Str(128),
  senderSessionId: Str(128),
  status: z.enum(['held', 'delivered', 'approved', 'denied', 'refused', 'expired', 'dropped']),
  reason: Str(4096),
  receiver: z.strictObject({ machine: Machine, sessionId: Str(128), name: Str(256) }),
});
export type RelayReceipt = z.infer<typeof RelayReceipt>;

/**
 * What the relay's JetStream store keeps for a machine that is away (core/relay/mail-store.ts): a message, with
 * the time after which its receiving hub answers `expired` instead of delivering it, or a receipt.
 */
export const StoredMail = z.discriminatedUnion('type', [
  z.strictObject({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('message'),
    message: RelayMessage,
    expiresAt: z.number().int(),
  }),
  z.strictObject({ v: z.literal(PROTOCOL_VERSION), type: z.literal('receipt'), receipt: RelayReceipt }),
]);
export type StoredMail = z.infer<typeof StoredMail>;

/** Parses a broker payload (bytes) with a schema; undefined when it is not ours or not valid. */
export function decode<T>(schema: z.ZodType<T>, data: Uint8Array): T | undefined {
  if (data.length > 2 * 1024 * 1024) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(new TextDecoder().decode(data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function encode(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

// Senders nobody vouches for, and the share of a receiver they may take.
// A socket writer (not one of our sessions, not the user, not the receiver's
// own child) and a relay sender are "unverified writers": together they get
// one rate bucket (throttle.ts), half a receiver's queue and half its held
// queue, so a flood of them never pushes out the messages of verified
// senders. Pure functions over what admission already has.

import type { Envelope } from '../delivery/envelope.js';
import type { HeldQueue } from './held.js';

/** Held messages a receiver keeps (the oldest is evicted, reported as expired, beyond this). */
export const HELD_CAP = 100;
/** Held messages of unverified writers a receiver keeps; verified senders keep the rest of HELD_CAP. */
export const WRITER_HELD_CAP = HELD_CAP / 2;

/**
 * A sender nobody vouches for: not one of our sessions, not the user. A relay sender is one too: any peer on
 * the broker can claim any machine's session ids, and 100 made-up ones pushed local senders' held messages out.
 */
export function unverifiedWriter(from: { address: string; sessionId: string | null }): boolean {
  return from.sessionId === null && from.address !== 'user';
}

/** An envelope from an unverified writer (the receiver's own child is vouched for by its token). */
export function fromUnverifiedWriter(env: Pick<Envelope, 'ownChild' | 'fromAddress' | 'fromSessionId'>): boolean {
  return !env.ownChild && unverifiedWriter({ address: env.fromAddress, sessionId: env.fromSessionId });
}

/** Unread messages of unverified writers in an inbox (at most LIMITS.inboxItems to look at). */
export function writerUnread(senders: Iterable<{ address: string; sessionId: string | null }>): number {
  let n = 0;
  for (const from of senders) if (unverifiedWriter(from)) n++;
  return n;
}

/** The writers' half of a receiver's held queue is full. */
export function writersHeldFull(held: Pick<HeldQueue, 'forReceiver'>, receiverId: string): boolean {
  return held.forReceiver(receiverId).filter((e) => fromUnverifiedWriter(e.env)).length >= WRITER_HELD_CAP;
}

// The hub's message model: one message on its way in, from a hosted
// session, a socket writer, a relay peer or the user, before admission.
// Journaled as is inside held records (journal/records.ts).

import type { ModeClass } from '../registry/session.js';

/** A message on its way in, from a hosted session or a socket writer. */
export interface Envelope {
  msgId: string;
  /** The sender's reply address: what the receiver copies into `to`. */
  fromAddress: string;
  fromName: string | null;
  /** Set when the hub vouches for the sender (a registered session). */
  fromSessionId: string | null;
  fromClass: ModeClass | null;
  /** The writer presented the receiver's own token (its child process). */
  ownChild: boolean;
  summary: string | null;
  body: string;
  at: number;
  /** Arrived on a reply socket: status reports go to writers beside it, from its address. */
  statusVia?: { socketPath: string; address: string };
}

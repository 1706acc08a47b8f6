// The delivery pipeline for one message to one hosted session: admission
// stages run in order (policy and throttling slot in here; the first stage
// with a verdict decides), then the message is wrapped and put in the
// receiver's inbox. The status it returns is the truth: `queued` only after
// the journal write, `dropped` with the reason otherwise.

import { randomUUID } from 'node:crypto';
import { wrapMessage } from '../protocol/cc-wire.js';
import type { InboxMessage, SendStatus } from '../protocol/methods.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { AddResult } from '../delivery/inbox.js';
import type { ModeClass, SessionRecord } from '../registry/session.js';

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
}

export type Verdict = { action: 'deliver' } | { action: 'refuse'; reason: string } | { action: 'drop'; reason: string };

/** One admission step; undefined passes the message to the next stage. */
export type AdmissionStage = (env: Envelope, receiver: SessionRecord) => Verdict | undefined;

export interface RouteResult {
  status: Extract<SendStatus, 'queued' | 'refused' | 'dropped'>;
  reason?: string;
}

export class Router {
  readonly #mailboxes: Mailboxes;
  readonly #stages: readonly AdmissionStage[];

  constructor(mailboxes: Mailboxes, stages: readonly AdmissionStage[]) {
    this.#mailboxes = mailboxes;
    this.#stages = stages;
  }

  route(env: Envelope, receiver: SessionRecord): Promise<RouteResult> {
    let verdict: Verdict = { action: 'deliver' };
    for (const stage of this.#stages) {
      const v = stage(env, receiver);
      if (v !== undefined) {
        verdict = v;
        break;
      }
    }
    switch (verdict.action) {
      case 'refuse':
        return Promise.resolve({ status: 'refused', reason: verdict.reason });
      case 'drop':
        return Promise.resolve({ status: 'dropped', reason: verdict.reason });
      case 'deliver':
        return this.#deliver(env, receiver);
      default: {
        const never: never = verdict;
        return never;
      }
    }
  }

  #deliver(env: Envelope, receiver: SessionRecord): Promise<RouteResult> {
    const item: InboxMessage = {
      kind: 'message',
      id: env.msgId,
      from: { address: env.fromAddress, name: env.fromName, sessionId: env.fromSessionId },
      summary: env.summary,
      text: wrapMessage(env.body, {
        from: env.fromAddress,
        ...(env.fromName !== null ? { fromName: env.fromName } : {}),
        ...(env.fromClass !== null ? { fromMode: env.fromClass } : {}),
      }),
      at: env.at,
      approvedAfterHold: false,
    };
    return this.#mailboxes.put(receiver.id, item).then(outcome);
  }
}

function outcome(added: AddResult): RouteResult {
    switch (added) {
      case 'added':
        return { status: 'queued' };
      case 'duplicate':
        return { status: 'dropped', reason: 'duplicate' };
      case 'full':
        return { status: 'dropped', reason: 'queue-full' };
      default: {
        const never: never = added;
        return never;
      }
    }
}

export function newMsgId(): string {
  return randomUUID();
}

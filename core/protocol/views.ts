// What user interfaces and agents are shown of the hub's state: a rule, a
// held message, a subscription, a task, a page of history, the picture's
// edges and the history store's status. Result types of methods.ts
// (re-exported by results.ts); plain data, no behaviour.

import type { HistoryCursor, HistoryEdge, HistoryMessage, HistoryStatus } from './history.js';

/** A rule with a lifetime (core/policy/rules.ts) as user interfaces show it. */
export interface RuleView {
  id: string;
  effect: 'allow' | 'block';
  lifetime: 'hour' | 'sessions' | 'always';
  /** `web → api, 1 h` */
  label: string;
  from: { name: string; sessionId: string | null; agent: string; cwd: string };
  to: { name: string; sessionId: string | null; agent: string; cwd: string };
  madeWith: string;
  createdAt: number;
  expiresAt: number | null;
  decided: number;
  lastDecidedAt: number | null;
}

export interface HeldView {
  id: string;
  sender: {
    name: string | null;
    address: string;
    sessionId: string | null;
    verified: boolean;
    /** What the person needs to decide: the sender's agent, permission mode, project directory and machine (null: not known here). */
    agent: string | null;
    mode: string | null;
    cwd: string | null;
    /** Another machine's name, or null for this machine. */
    machine: string | null;
  };
  receiver: { sessionId: string; name: string; label: string };
  reason: string;
  /** The first 200 characters of the message. */
  preview: string;
  text: string;
  summary: string | null;
  heldAt: number;
  /** Wall-clock deadline, or null while no interface is attached or expiry is "never". */
  expiresAt: number | null;
}

export interface SubscriptionView {
  id: string;
  subscriber: { sessionId: string; name: string | null };
  target: { sessionId: string; label: string };
  createdAt: number;
  expiresAt: number;
}

export interface TaskView {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  owner?: string;
  status: 'pending' | 'in_progress' | 'completed';
  blocks: string[];
  blockedBy: string[];
  metadata?: Record<string, unknown>;
}

/** One page of history: messages with their outcome and trail; `next` is the cursor for more (before/after). */
export interface HistoryPage {
  messages: HistoryMessage[];
  next: number | null;
}
/** The picture's edges: `address` is the receiver's while the hub knows it (null once forgotten); `truncated` when rows were left out; `cursor` the last `history.moved` they include. */
export interface HistoryEdgesView {
  since: number;
  edges: Array<HistoryEdge & { to: HistoryEdge['to'] & { address: string | null } }>;
  truncated: boolean;
  cursor: HistoryCursor;
}
export interface HistoryStatusView extends HistoryStatus {
  messages: number;
  events: number;
  bytes: number;
  retention: { days: number; maxMegabytes: number };
}

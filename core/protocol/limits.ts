// Every bound the hub enforces, in one object. Tests shrink these through
// HubOptions.limits; nothing else in core/ hard-codes a size, count or wait.

export interface Limits {
  /** Longest NDJSON line accepted on any socket, in bytes. */
  readonly frameBytes: number;
  /** Concurrent connections on the hub socket. */
  readonly connections: number;
  /** Requests of one connection awaiting an answer before reading pauses. */
  readonly inFlightPerConnection: number;
  /** Hub-socket connections that have not made a valid request yet; past it the oldest is evicted. */
  readonly pendingConnections: number;
  /** A hub-socket connection that makes no valid request for this long after connecting is closed. */
  readonly firstRequestMs: number;
  /** A line begun on any socket must end (newline) within this much reading time. */
  readonly partialLineMs: number;
  /** Bytes of unfinished lines held across all of a hub's connections; past it the largest is closed. */
  readonly partialBytesTotal: number;
  /** Lines of one connection handled per event-loop turn before the others get theirs. */
  readonly linesPerTurn: number;
  /** Unsent answer bytes of one hub connection above which reading from it pauses until 'drain'. */
  readonly unsentBytes: number;
  /** Unsent bytes above which the connection is closed (pushes to a client that never reads). */
  readonly unsentBytesClose: number;
  /** How long a connection we close keeps its socket for the last error line to leave. */
  readonly closeLingerMs: number;
  /** Live sessions the hub hosts. */
  readonly sessions: number;
  /** Items (messages, receipts, notices) kept unacknowledged per session. */
  readonly inboxItems: number;
  /** Largest message body, in UTF-8 bytes. */
  readonly messageBytes: number;
  /** Longest summary, in characters. */
  readonly summaryChars: number;
  /** Connections open at once on one session's inbound socket; past it the least recently active is evicted. */
  readonly inboundConnections: number;
  /** A session-socket connection silent for this long is closed (writers send and close). */
  readonly inboundIdleMs: number;
  /** Connect-and-write timeout for one outbound socket line. */
  readonly outboundTimeoutMs: number;
  /** Connect timeout when probing whether a socket answers. */
  readonly probeTimeoutMs: number;
  /**
   * How often pid-bound sessions are checked, all in one batch, while any exists (core/host/sweep.ts). An agent
   * whose hub connection closes (its MCP adapter exits with it) is checked 1 s later; this is the fallback.
   */
  readonly livenessSweepMs: number;
  /** A pid-bound session with no request for this long is dropped. */
  readonly leaseMs: number;
  /** Dormant (dead) sessions keep their inbox for a resume this long. */
  readonly dormantRetentionMs: number;
  /** Grouped fdatasync of the journal at most this often. */
  readonly journalSyncMs: number;
  /** Dead journal bytes (acknowledged, replaced) that trigger a compaction once they are also half the file. */
  readonly journalCompactBytes: number;
  /** Longest journal record line; a longer one is refused at append and dropped (logged) at replay. */
  readonly journalLineBytes: number;
  /** Lifetime of an idle subscription that never fires. */
  readonly idleSubscriptionMs: number;
  /** Longest `inbox.fetch` wait. */
  readonly fetchWaitMs: number;
  /** How long a session's "nothing pending" mark lets its post-tool hooks skip the hub (core/delivery/quiet-marks.ts). */
  readonly quietMarkMs: number;
  /** Ended sessions kept for a resume (they have unread or held messages); the oldest beyond go. */
  readonly dormantSessions: number;
  /** Deepest nesting of a free-form JSON value in a request (settings, metadata, setting values). */
  readonly jsonDepth: number;
  /** Largest serialized size of one free-form JSON value in a request, in UTF-8 bytes. */
  readonly jsonBytes: number;
  /** History entries waiting for the database (one per message: its decision, outcome and text fold into it; receipts are their own); more are counted as a gap, never waited for. */
  readonly historyQueueRecords: number;
  /** Characters of text waiting for the database (the same gap rule). */
  readonly historyQueueChars: number;
  /** How often queued history records are written (one transaction). */
  readonly historyFlushMs: number;
  /** The same while the event loop is busy serving sends: history waits longer, the sends do not. */
  readonly historyBusyFlushMs: number;
  /** Most records written in one transaction. */
  readonly historyBatchRecords: number;
  /** Event-loop time one timed flush may take; its batch is sized from the measured cost per record. */
  readonly historyFlushBudgetMs: number;
  /** The same while the event loop was mostly idle since the last flush (catching up after a burst). */
  readonly historyIdleFlushBudgetMs: number;
  /** How often retention (age, size cap) runs. */
  readonly historyPruneMs: number;
  /** Most messages one history query returns. */
  readonly historyQueryRows: number;
  /** Most (sender, receiver, outcome) rows one picture query returns (`history.edges`). */
  readonly historyEdgeRows: number;
  /** Messages whose edge and outcome the hub remembers to push the picture's counts as moves (older ones: a reset). */
  readonly historyMovesKnown: number;
  readonly historyReserveBytes: number;
  /** Messages written to an idle Claude Code session's own socket per wake; the rest follow through its hooks during the turn. */
  readonly wakeBatch: number;
  /** Writes to one Claude Code session's own socket in a burst (wake and mid-turn; Claude Code's own bucket holds 30). */
  readonly claudeSocketBurst: number;
  /** Writes to one Claude Code session's socket regained per second (Claude Code refills 0.5). */
  readonly claudeSocketPerSecond: number;
  /** An identical text is not written to the same Claude Code socket again within this (Claude Code drops repeats within 30 s). */
  readonly claudeSocketRepeatMs: number;
  /** One wake of an idle Codex thread through its app-server daemon: connect, read the thread, start the turn. */
  readonly codexWakeTimeoutMs: number;
  /** How long a wake waits for a Codex thread to finish the turn whose Stop hook said idle. */
  readonly codexIdleWaitMs: number;
  /** Message text per woken Codex turn (at least one message always goes); the rest follow through its hooks. */
  readonly codexWakeBytes: number;
  /** Largest WebSocket message taken from a Codex app-server. */
  readonly codexFrameBytes: number;
}

export const LIMITS: Limits = {
  frameBytes: 1024 * 1024, // Claude Code drops a line over 1 MiB; match it
  connections: 512, // adapters + CLI calls of a very busy machine
  inFlightPerConnection: 4096, // enough for pipelined senders, bounded memory
  pendingConnections: 64, // a CLI call makes its request right after connecting
  firstRequestMs: 10_000, // every client writes its first request at once
  partialLineMs: 10_000, // a 1 MiB line over a local socket takes milliseconds
  partialBytesTotal: 64 * 1024 * 1024, // 64 frames begun at once; 1 500 half-lines were 1 GB
  linesPerTurn: 64, // one connection's storm cannot starve the others (docs/benchmarks.md)
  unsentBytes: 1024 * 1024, // one full frame of answers waiting
  unsentBytesClose: 64 * 1024 * 1024, // a subscriber that stopped reading
  closeLingerMs: 1000, // then the socket is destroyed
  sessions: 4096, // far above any real machine, bounds the registry
  inboxItems: 1000, // throttle drops at 50 unread peer messages; receipts fit
  messageBytes: 256 * 1024, // wrapped and JSON-escaped it stays under 1 MiB
  summaryChars: 200, // Claude Code's summary bound
  inboundConnections: 64, // per session socket
  inboundIdleMs: 15_000, // Claude Code's writers connect, write and close within 5 s
  outboundTimeoutMs: 5000, // Claude Code's connect-and-write timeout
  probeTimeoutMs: 250, // Claude Code's liveness probe
  livenessSweepMs: 20_000, // ≤ 0.05 wakeups/s: half the idle budget of 0.1/s; a closed connection checks at once
  leaseMs: 7 * 24 * 3600_000, // backstop where process start time is unknown
  dormantRetentionMs: 7 * 24 * 3600_000, // a week to resume a session
  journalSyncMs: 50, // bounds loss on power failure, not on process death
  journalCompactBytes: 64 * 1024 * 1024, // rewrite when 64 MiB are dead and dead >= live
  journalLineBytes: 8 * 1024 * 1024, // a held 256 KiB body JSON-escaped (up to 6x) fits with room
  idleSubscriptionMs: 3600_000, // 60 minutes: docs/design.md#12-idle-notifications
  fetchWaitMs: 600_000, // ten minutes
  quietMarkMs: 60_000, // one hub round trip per busy session a minute; bounds a mark that outlived its truth
  dormantSessions: 1000, // resumable ended sessions; each keeps at most its inbox (≤ inboxItems)
  jsonDepth: 32, // settings and task metadata are a few levels deep; JSON.stringify and readers stay far from the stack limit
  jsonBytes: 64 * 1024, // a settings object or task metadata is a few KiB; a task file stays readable
  historyQueueRecords: 7_000, // ~7 000 messages (one entry each, decision, outcome and text folded in): ~2 MB; beyond it a reported gap
  historyQueueChars: 8 * 1024 * 1024, // bounds queued text (UTF-16 in memory: ≤ 16 MiB)
  historyFlushMs: 250, // at most a quarter second of history lost in a crash (queries write the queue first)
  historyBusyFlushMs: 1000, // a saturated hub writes 3 ms per second (0.3 % of its loop); the rest is a counted gap
  historyBatchRecords: 2000, // one transaction; also the chunk when a query or close writes everything
  historyFlushBudgetMs: 3, // 3 ms per 250 ms: ~1 % of a busy event loop; batches big enough to amortise a commit
  historyIdleFlushBudgetMs: 15, // an idle hub drains a burst's backlog three times faster; a send waits ≤ 15 ms
  historyPruneMs: 60_000, // retention once a minute
  historyQueryRows: 500, // one page of a view or of `switchboard history`
  historyEdgeRows: 10_000, // 5 000 messages between distinct pairs, each with two outcomes: ~1 MB of JSON at most
  historyMovesKnown: 20_000, // four times the picture's 5 000-message scale; ~300 bytes each, ~6 MB at most
  historyReserveBytes: 64 * 1024 * 1024, // history stops writing below this much free on its disk: messages come first
  wakeBatch: 20, // as many as one hook hands over
  claudeSocketBurst: 20, // two thirds of Claude Code's bucket: other senders keep their share
  claudeSocketPerSecond: 0.4, // under Claude Code's 0.5 a second, so its throttle never drops one of ours
  claudeSocketRepeatMs: 35_000, // Claude Code's 30 s, with a margin for the two clocks
  codexWakeTimeoutMs: 5000, // the daemon answers in ~20 ms; as long as Claude Code's socket write
  codexIdleWaitMs: 3000, // measured: the turn ends tens of ms after its Stop hook
  codexWakeBytes: 64 * 1024, // a few long messages; the model's context is the real budget
  codexFrameBytes: 16 * 1024 * 1024, // what codex 0.171.0 announces (x-codex-websocket-max-unfragmented-message-bytes)
};

export function withLimits(overrides: Partial<Limits> | undefined): Limits {
  return Object.freeze({ ...LIMITS, ...overrides });
}

// Shared by the History view's renderer tests: messages as history.search
// returns them (one per outcome path) and `settle`, which lets React's
// updates and the fake bridge's answers in.
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import type { HistoryMessage } from '../../core/protocol/history.js';

/** React's updates and the bridge's answers are in; with fake timers, `ms` of them run too. */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(ms);
    else await new Promise((r) => setTimeout(r, ms));
  });
}

export const NOW = Date.now();
let seq = 0;
export function msg(
  from: string,
  to: string,
  summary: string,
  outcome: string,
  trail: Array<[kind: 'receipt' | 'decision', status: string, reason?: string]>,
  reason = '',
): HistoryMessage {
  seq++;
  return {
    seq,
    msgId: `m${seq}`,
    at: NOW - 60_000 * seq,
    sender: { sessionId: `id-${from}`, name: from, address: `uds:/r/${from}.sock`, team: null },
    receiver: { sessionId: `id-${to}`, name: to, team: null },
    summary,
    text: `<cross-session-message from="uds:/r/${from}.sock" from-name="${from}" from-mode="prompting">\n${summary} in full\n</cross-session-message>`,
    outcome,
    reason,
    outcomeAt: NOW,
    trail: trail.map(([kind, status, why]) => ({ at: NOW, kind, status, reason: why ?? '' })),
  };
}

export const delivered = msg('api', 'web', 'schema ready', 'delivered', [
  ['decision', 'deliver'],
  ['receipt', 'delivered'],
]);
export const approved = msg('api', 'web', 'please migrate', 'delivered', [
  ['decision', 'hold', 'mode parity'],
  ['receipt', 'held', 'mode parity'],
  ['receipt', 'approved'],
  ['receipt', 'delivered'],
]);
export const denied = msg(
  'web',
  'api',
  'rm -rf please',
  'denied',
  [
    ['decision', 'hold', 'mode parity'],
    ['receipt', 'held', 'mode parity'],
    ['receipt', 'denied', 'the user said no'],
  ],
  'the user said no',
);
export const dropped = msg('api', 'web', 'again', 'dropped', [['receipt', 'dropped', 'duplicate']], 'duplicate');

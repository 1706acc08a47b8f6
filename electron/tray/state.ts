// Reads the tray's state from the hub through the same operations the
// windows use (never by reaching into the hub's tables).

import type { BridgeOutcome } from '../../core/contract/bridge.js';
import type { AgentRow, HeldView } from '../../core/protocol/methods.js';
import { MENU_HELD, type TrayState } from './menu.js';

export async function readTrayState(
  run: (op: string, input: unknown) => Promise<BridgeOutcome>,
  paused: boolean,
  quiet = false,
): Promise<TrayState> {
  const [sessions, held, confirmations] = await Promise.all([
    run('sessions.list', {}),
    run('held.list', {}),
    run('confirmations.list', {}),
  ]);
  const rows = sessions.ok ? (sessions.result as { rows: AgentRow[] }).rows : [];
  const items = held.ok ? (held.result as { items: HeldView[] }).items : [];
  const waiting = confirmations.ok ? (confirmations.result as { items: unknown[] }).items : [];
  const heldItems = [...items]
    .sort((a, b) => a.heldAt - b.heldAt)
    .slice(0, MENU_HELD)
    .map((h) => ({
      id: h.id,
      sender: h.sender.name ?? h.sender.address,
      receiver: h.receiver.label,
      preview: h.preview,
    }));
  return {
    sessions: rows.filter((r) => !r.self),
    held: items.length,
    heldItems,
    confirmations: waiting.length,
    paused,
    quiet,
  };
}

// Which native notifications to raise and what their buttons do, as pure
// functions. A held message or a cross-machine send waiting for
// confirmation raises one notification (once per item); the buttons are
// Deny first, Approve / Allow once second where the platform shows actions
// (macOS), and for a held message two rules for its sender, an hour long
// (Allow / Block this sender for an hour: the same rules as the held card);
// a click anywhere else only opens the Approvals view focused on the item. Closing or ignoring a notification decides nothing. The text
// is another agent's words, labelled as such and cut short. Messages waiting
// for an idle session that cannot be woken raise one plain notification per
// notice (no buttons; a click opens the Sessions view).

import type { ConfirmationView, HeldView } from '../../core/protocol/methods.js';

export interface NotificationSpec {
  /** Which queue the item is in (held messages, or sends waiting to leave the machine), or `waiting` (an idle session cannot be woken). */
  kind: 'held' | 'confirmation' | 'waiting';
  itemId: string;
  title: string;
  body: string;
  /** Button labels in order; empty where the platform has no actions. */
  actions: string[];
}

export type NotificationDecision =
  | { kind: 'deny' | 'approve'; item: 'held' | 'confirmation'; itemId: string }
  | { kind: 'rule'; effect: 'allow' | 'block'; itemId: string }
  | { kind: 'open'; itemId: string; view?: 'sessions' };

const BODY_CHARS = 140;
export const NOTIFICATION_ACTIONS = [
  'Deny',
  'Approve',
  'Allow this sender for an hour',
  'Block this sender for an hour',
] as const;
export const CONFIRMATION_ACTIONS = ['Deny', 'Allow once'] as const;

export function supportsActions(platform: NodeJS.Platform): boolean {
  return platform === 'darwin';
}

export function heldNotification(item: HeldView, platform: NodeJS.Platform): NotificationSpec {
  const text = item.preview.length > BODY_CHARS ? `${item.preview.slice(0, BODY_CHARS - 1)}…` : item.preview;
  return {
    kind: 'held',
    itemId: item.id,
    title: `Held: ${item.sender.name ?? item.sender.address} → ${item.receiver.label}`,
    body: `Agent text (not from you): ${text}`,
    actions: supportsActions(platform) ? [...NOTIFICATION_ACTIONS] : [],
  };
}

export function confirmationNotification(c: ConfirmationView, platform: NodeJS.Platform): NotificationSpec {
  const text = c.preview.length > BODY_CHARS ? `${c.preview.slice(0, BODY_CHARS - 1)}…` : c.preview;
  return {
    kind: 'confirmation',
    itemId: c.id,
    title: `Leave this machine? ${c.sender.name} → ${c.target.session}`,
    body: `To ${c.target.machine}: ${text}`,
    actions: supportsActions(platform) ? [...CONFIRMATION_ACTIONS] : [],
  };
}

/** The items not announced before; updates `announced` to the current set. */
export function newHeldItems<T extends { id: string }>(items: T[], announced: Set<string>): T[] {
  const fresh = items.filter((i) => !announced.has(i.id));
  const current = new Set(items.map((i) => i.id));
  for (const id of [...announced]) if (!current.has(id)) announced.delete(id);
  for (const i of fresh) announced.add(i.id);
  return fresh;
}

/** "2 messages waiting for web [3f], which is idle": the user may switch to it; nothing to decide. */
export function waitingNotification(w: { sessionId: string; label: string; count: number }): NotificationSpec {
  return {
    kind: 'waiting',
    itemId: w.sessionId,
    title: `${w.count} message${w.count === 1 ? '' : 's'} waiting for ${w.label}, which is idle`,
    body: 'Its agent cannot be woken from outside. Switch to it and type anything, or it reads them at its next turn.',
    actions: [],
  };
}

/** What a button press means: index 0 denies, 1 approves, anything else only opens. */
export function onAction(spec: NotificationSpec, index: number): NotificationDecision {
  if (spec.kind === 'waiting') return onClick(spec);
  const label = spec.actions[index];
  if (label === 'Approve' || label === 'Allow once') return { kind: 'approve', item: spec.kind, itemId: spec.itemId };
  if (label === 'Deny') return { kind: 'deny', item: spec.kind, itemId: spec.itemId };
  if (spec.kind === 'held' && label === 'Allow this sender for an hour')
    return { kind: 'rule', effect: 'allow', itemId: spec.itemId };
  if (spec.kind === 'held' && label === 'Block this sender for an hour')
    return { kind: 'rule', effect: 'block', itemId: spec.itemId };
  return { kind: 'open', itemId: spec.itemId };
}

export function onClick(spec: NotificationSpec): NotificationDecision {
  if (spec.kind === 'waiting') return { kind: 'open', itemId: spec.itemId, view: 'sessions' };
  return { kind: 'open', itemId: spec.itemId };
}

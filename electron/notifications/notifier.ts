// The desktop app's native notifications, behind ports (the real
// Notification class is handed in by electron/main.ts): one per newly held
// message and per cross-machine send waiting to leave, once each; one per
// "messages waiting for an idle session"; none while the person chose Quiet
// (the tray's count and badge still show). A button or a click becomes a
// decision (route.ts) and the decision a bridge operation: deny, approve,
// a rule for that sender made from the notification, or opening the view.

import type { BridgeOutcome } from '../../core/contract/bridge.js';
import type { UserNotice } from '../../core/protocol/events.js';
import type { ConfirmationView, HeldView } from '../../core/protocol/methods.js';
import {
  confirmationNotification,
  heldNotification,
  newHeldItems,
  onAction,
  onClick,
  waitingNotification,
  type NotificationDecision,
  type NotificationSpec,
} from './route.js';

/** What the notifier needs from the app. */
export interface NotifierPorts {
  /** Runs a bridge operation as the desktop user interface. */
  run(op: string, input: unknown): Promise<BridgeOutcome>;
  /** Shows a view (and focuses an item in it). */
  focus(view: 'sessions' | 'approvals', itemId?: string): Promise<void>;
  /** The platform's notifications: whether there are any, and raising one with its two handlers. */
  native: {
    supported(): boolean;
    show(spec: NotificationSpec, onActionIndex: (index: number) => void, onClicked: () => void): void;
  };
  platform: NodeJS.Platform;
  /** Quiet (the tray's checkbox): nothing is raised; what arrives meanwhile is not raised later either. */
  quiet(): boolean;
  log(message: string, fields: Record<string, unknown>): void;
}

export interface Notifier {
  /** A hub event (as the desktop UI receives it): raises what it calls for. */
  event(params: unknown): void;
  /** What a notification's button or click decided; exposed for tests. */
  decide(d: NotificationDecision): Promise<void>;
}

export function createNotifier(ports: NotifierPorts): Notifier {
  const announced = { held: new Set<string>(), confirmation: new Set<string>() };

  const decide = async (d: NotificationDecision): Promise<void> => {
    if (d.kind === 'open') return ports.focus(d.view ?? 'approvals', d.view === undefined ? d.itemId : undefined);
    const r =
      d.kind === 'rule'
        ? await ports.run('rules.add', {
            heldId: d.itemId,
            effect: d.effect,
            lifetime: 'hour',
            madeWith: 'desktop app',
          })
        : d.item === 'held'
          ? await ports.run(d.kind === 'approve' ? 'held.approve' : 'held.deny', { id: d.itemId })
          : await ports.run(d.kind === 'approve' ? 'confirmations.allow' : 'confirmations.deny', { id: d.itemId });
    // Decided elsewhere meanwhile, or refused: the person sees it where it is still listed.
    if (!r.ok) {
      ports.log('a decision from a notification was not taken', { reason: r.reason });
      await ports.focus('approvals', d.itemId);
    }
  };

  const show = (spec: NotificationSpec): void => {
    ports.native.show(
      spec,
      (index) => {
        decide(onAction(spec, index)).catch(failed);
      },
      () => {
        decide(onClick(spec)).catch(failed);
      },
    );
  };
  const failed = (err: unknown): void =>
    ports.log('a notification decision failed', { error: err instanceof Error ? err.message : String(err) });

  /** New items are marked announced either way; `quiet` (as it was when the event came) raises none of them. */
  const announceNew = async (kind: 'held' | 'confirmation', quiet: boolean): Promise<void> => {
    if (!ports.native.supported()) return;
    if (kind === 'held') {
      const r = await ports.run('held.list', {});
      if (r.ok)
        for (const item of newHeldItems((r.result as { items: HeldView[] }).items, announced.held))
          if (!quiet) show(heldNotification(item, ports.platform));
    } else {
      const r = await ports.run('confirmations.list', {});
      if (r.ok)
        for (const c of newHeldItems((r.result as { items: ConfirmationView[] }).items, announced.confirmation))
          if (!quiet) show(confirmationNotification(c, ports.platform));
    }
  };

  return {
    decide,
    event(params) {
      const type = (params as { type?: unknown }).type;
      const quiet = ports.quiet();
      if (type === 'held.changed') announceNew('held', quiet).catch(failed);
      if (type === 'confirmations.changed') announceNew('confirmation', quiet).catch(failed);
      const waiting = type === 'user.notice' ? (params as { notice?: UserNotice }).notice?.waiting : undefined;
      if (waiting !== undefined && !quiet && ports.native.supported()) show(waitingNotification(waiting));
    },
  };
}

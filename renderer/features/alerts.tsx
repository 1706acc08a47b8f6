// What tells the person that something waits, whichever view is open: the
// tab title carries the count ("(3) Switchboard"); a banner on every view
// while inbound is paused (with how many were refused, and Resume) and when
// a held message is about to expire unseen; and, once the person asked for
// them with the button (never on load), browser notifications for each
// newly held message and for one about to expire. A click on a notification
// opens Approvals with that card in focus (Deny focused). Plain page
// notifications have no action buttons; the desktop app's native ones do.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { HeldView } from '../../core/protocol/methods.js';
import type { Stores } from '../stores/stores.js';
import { useNow } from '../ui/hooks.js';

/** A held message this close to its deadline gets a warning. */
export const EXPIRY_WARNING_MS = 60_000;
const TITLE = 'Switchboard';

export function titleFor(count: number): string {
  return count > 0 ? `(${count}) ${TITLE}` : TITLE;
}

/** Held messages whose deadline is within the warning window (and not past). */
export function expiringSoon(items: readonly HeldView[], now: number): HeldView[] {
  return items.filter((h) => h.expiresAt !== null && h.expiresAt > now && h.expiresAt - now <= EXPIRY_WARNING_MS);
}

const notificationsAvailable = (): boolean => typeof Notification !== 'undefined';

/** "Quiet": held messages collect in Approvals without notifications (the title still counts). Kept per browser. */
const QUIET_KEY = 'switchboard.quiet';
export function quietOn(): boolean {
  try {
    return localStorage.getItem(QUIET_KEY) === '1';
  } catch {
    return false;
  }
}

/** The quiet switch, beside "Notify me". */
export function QuietToggle(): ReactNode {
  const [on, setOn] = useState(quietOn);
  const flip = (next: boolean): void => {
    try {
      if (next) localStorage.setItem(QUIET_KEY, '1');
      else localStorage.removeItem(QUIET_KEY);
    } catch {
      // storage refused: the switch still holds for this page
    }
    setOn(next);
  };
  return (
    <label title="Held messages collect here without notifications; the count in the title stays">
      <input type="checkbox" checked={on} onChange={(e) => flip(e.target.checked)} /> Quiet (no notifications)
    </label>
  );
}

/** Keeps the title's count and raises notifications; `open` shows Approvals with a card in focus. */
export function useAlerts(stores: Stores, count: number, open: (itemId: string) => void): void {
  const held = useStore(stores.held, (s) => s.data);
  const loaded = useStore(stores.held, (s) => !s.loading);
  const now = useNow();
  const seen = useRef<Set<string> | null>(null);
  const warned = useRef(new Set<string>());
  useEffect(() => {
    document.title = titleFor(count);
  }, [count]);
  useEffect(() => {
    if (!loaded) return; // the empty list before the first load is no baseline
    const known = seen.current;
    seen.current = new Set(held.map((h) => h.id));
    // The first list is what waited before this page opened: counted in the title, not announced again.
    if (known === null || !notificationsAvailable() || Notification.permission !== 'granted' || quietOn()) return;
    for (const h of held.filter((x) => !known.has(x.id)))
      notify(`Held: ${h.sender.name ?? h.sender.address} → ${h.receiver.label}`, h, open);
  }, [held, loaded, open]);
  useEffect(() => {
    if (!notificationsAvailable() || Notification.permission !== 'granted' || quietOn()) return;
    for (const h of expiringSoon(held, now)) {
      if (warned.current.has(h.id)) continue;
      warned.current.add(h.id);
      notify(`Expires in under a minute: ${h.sender.name ?? h.sender.address} → ${h.receiver.label}`, h, open);
    }
  }, [held, now, open]);
}

function notify(title: string, h: HeldView, open: (itemId: string) => void): void {
  const n = new Notification(title, { body: (h.summary ?? h.text).slice(0, 160), tag: h.id });
  n.onclick = () => {
    window.focus();
    open(h.id);
    n.close();
  };
}

/** "Notify me": asks the browser once, from the person's click. */
export function NotifyButton(): ReactNode {
  const [permission, setPermission] = useState(() => (notificationsAvailable() ? Notification.permission : 'denied'));
  if (!notificationsAvailable()) return null;
  if (permission === 'granted')
    return (
      <span className="dim" data-testid="notify-state">
        Notifications on
      </span>
    );
  if (permission === 'denied')
    return (
      <span className="dim" data-testid="notify-state" title="Allow notifications for this page in the browser">
        Notifications blocked by the browser
      </span>
    );
  return (
    <button onClick={() => void Notification.requestPermission().then(setPermission)}>
      Notify me of held messages
    </button>
  );
}

/** Banners on every view: inbound paused (with Resume), held messages about to expire. */
export function Banners({ stores, openApprovals }: { stores: Stores; openApprovals: () => void }): ReactNode {
  const settings = useStore(stores.settings, (s) => s.data);
  const held = useStore(stores.held, (s) => s.data);
  const now = useNow();
  const soon = expiringSoon(held, now);
  const resume = async (): Promise<void> => {
    await stores.bridge.call('inbound.pause', { paused: false }).catch(() => undefined);
    await stores.settings.getState().load();
  };
  return (
    <>
      {settings.paused && (
        <div className="banner" role="status" data-testid="paused-banner">
          <span>
            <strong>Inbound messages are paused.</strong> Every new message is refused (its sender is told “paused by
            its user”); {settings.pausedRefused} refused so far. Held messages stay for you.
          </span>
          <button onClick={() => void resume()}>Resume</button>
        </div>
      )}
      {soon.length > 0 && (
        <div className="banner" role="alert" data-testid="expiry-banner">
          <span>
            <strong>
              {soon.length === 1 ? 'A held message expires' : `${soon.length} held messages expire`} within a minute
            </strong>{' '}
            unless you decide.
          </span>
          <button onClick={openApprovals}>Open Approvals</button>
        </div>
      )}
    </>
  );
}

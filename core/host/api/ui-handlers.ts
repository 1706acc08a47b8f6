// Handlers for user interfaces: held-message decisions, subscriptions,
// effective settings, activity. The dispatcher checks the hub's UI token in
// constant time before any of these runs (their auth kind is `ui`); a
// session token never works here.

import { HubError } from '../../protocol/errors.js';
import type { HeldView, MethodName } from '../../protocol/methods.js';
import { label } from '../../registry/names.js';
import { parsePeerAddress } from '../../protocol/relay-wire.js';
import { USER_SUBSCRIBER } from '../../idle/idle.js';
import { setUserSetting } from '../../settings/user-file.js';
import type { Hub } from '../hub.js';
import type { Handler } from './dispatch.js';

type UiMethod =
  | 'ui.attach'
  | 'held.list'
  | 'held.approve'
  | 'held.deny'
  | 'held.decide'
  | 'subscriptions.list'
  | 'subscriptions.cancel'
  | 'settings.effective'
  | 'activity.list'
  | 'settings.set'
  | 'inbound.pause'
  | 'confirmations.list'
  | 'confirmations.allow'
  | 'confirmations.deny';
export type UiHandlers = { [M in UiMethod & MethodName]: Handler<M> };

const PREVIEW_CHARS = 200;

export function createUiHandlers(hub: Hub): UiHandlers {
  const sessionOf = (id: string) => hub.table.live.get(id) ?? hub.table.dormant.get(id)?.session;
  const sessionName = (id: string): string | null => sessionOf(id)?.name ?? null;
  /** What a person needs to decide on a held message: who sent it, from where, in which mode. */
  const senderDetails = (
    sessionId: string | null,
    address: string,
  ): Pick<HeldView['sender'], 'agent' | 'mode' | 'cwd' | 'machine'> => {
    const s = sessionId === null ? undefined : sessionOf(sessionId);
    const machine = parsePeerAddress(address)?.machine ?? null;
    if (s === undefined) return { agent: null, mode: null, cwd: null, machine };
    return { agent: s.agent, mode: s.modeKnown === false ? 'unknown' : s.permissionMode, cwd: s.cwd, machine };
  };

  return {
    'ui.attach': (_p, { conn }) => {
      hub.connections.attachUi(conn);
      return { attached: true, held: hub.admission.held.size };
    },

    'held.list': () => {
      const monoNow = hub.clock.monotonic();
      const items = hub.admission.held.all().map((e): HeldView => {
        const name = sessionName(e.receiverId) ?? 'a session that has ended';
        const ref = hub.table.refOf(e.receiverId);
        return {
          id: e.id,
          sender: {
            name: e.env.fromName,
            address: e.env.fromAddress,
            sessionId: e.env.fromSessionId,
            verified: e.env.fromSessionId !== null,
            ...senderDetails(e.env.fromSessionId, e.env.fromAddress),
          },
          receiver: { sessionId: e.receiverId, name, label: ref ? label(name, ref) : name },
          reason: e.reason,
          preview: e.env.body.slice(0, PREVIEW_CHARS),
          text: e.env.body,
          summary: e.env.summary,
          heldAt: e.heldAt,
          expiresAt: e.deadline === null ? null : hub.clock.now() + Math.max(0, e.deadline - monoNow),
        };
      });
      return { items };
    },

    'held.approve': (p) => hub.admission.approve(p.id),

    'held.deny': async (p) => {
      await hub.admission.deny(p.id);
      return { status: 'denied' as const };
    },

    'held.decide': async (p) => ({ results: await hub.admission.decideMany(p.ids, p.approve) }),

    'subscriptions.list': () => {
      const monoNow = hub.clock.monotonic();
      const wallNow = hub.clock.now();
      return {
        items: hub.idle.list().map((s) => ({
          id: s.id,
          subscriber: {
            sessionId: s.subscriberId,
            name: s.subscriberId === USER_SUBSCRIBER ? 'you (the user)' : sessionName(s.subscriberId),
          },
          target: { sessionId: s.targetId, label: s.targetLabel },
          createdAt: wallNow - (monoNow - s.createdAt),
          expiresAt: wallNow + (s.expiresAt - monoNow),
        })),
      };
    },

    'subscriptions.cancel': (p) => {
      return { cancelled: hub.idle.cancel(p.id) };
    },

    'settings.effective': (p) => {
      let effective: unknown = redactRelay(hub.adminSettings());
      if (p.sessionId !== undefined) {
        const s = hub.table.live.get(p.sessionId);
        if (s === undefined) throw new HubError('target_not_found');
        effective = hub.admission.effective(s);
      }
      return {
        effective,
        problems: hub.settings.problems(),
        paused: hub.admission.paused,
        pausedRefused: hub.admission.pausedRefused,
        userFile: hub.settings.userPath,
      };
    },

    'activity.list': () => ({ entries: hub.activity.list(), notices: hub.userNotices.list() }),

    'settings.set': async (p) => {
      setUserSetting(hub.settings.userPath, p.key, p.value ?? null); // a refused value: invalid_params (wire-errors.ts)
      await hub.settingsChanged();
      return { effective: hub.adminSettings() };
    },

    'confirmations.list': () => {
      const relay = hub.remote.relay;
      return {
        items: hub.remote.confirmations.list(),
        relay: {
          configured: relay !== undefined,
          connected: relay?.connected ?? false,
          machine: relay?.machine ?? null,
          mode: relay?.mode ?? null,
        },
      };
    },
    'confirmations.allow': (p) => {
      if (!hub.remote.confirmations.decide(p.id, 'allow')) throw new HubError('item_not_found');
      return { decided: true as const };
    },
    'confirmations.deny': (p) => {
      if (!hub.remote.confirmations.decide(p.id, 'deny')) throw new HubError('item_not_found');
      return { decided: true as const };
    },

    // Pausing refuses every new inbound message; held ones stay held for the user to decide.
    'inbound.pause': (p) => {
      if (hub.admission.paused !== p.paused) {
        hub.admission.paused = p.paused;
        hub.events.emit({ type: 'inbound.paused', paused: p.paused });
      }
      return { paused: hub.admission.paused };
    },
  };
}

/** The relay's secrets never travel to a user interface (they stay in the settings file). */
function redactRelay<T extends { relay: { value: unknown; source: string } }>(e: T): T {
  const r = e.relay.value as Record<string, unknown> | null;
  if (r === null) return e;
  const hidden = Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, k === 'token' || k === 'password' ? '(set)' : v]),
  );
  return { ...e, relay: { ...e.relay, value: hidden } };
}

// One function per hub method, typed from METHODS. The dispatcher
// (dispatch.ts) has already checked the caller by the method's auth kind;
// a session's handler gets its record. The map's type makes a method without
// a handler a compile error.

import { HubError } from '../../protocol/errors.js';
import { nameChange, validName } from '../../registry/names.js';
import { modeClass } from '../../registry/session.js';
import { nameHeldByOther } from '../../registry/resolution.js';
import type { Hub } from '../hub.js';
import { bindConversation, registerBound } from '../../sessions/conversations.js';
import { createHistoryHandlers } from './history-handlers.js';
import { createUiHandlers } from './ui-handlers.js';
import { createRuleHandlers } from './rule-handlers.js';
import { createTeamHandlers } from './team-handlers.js';
import { createUserHandlers } from './user-handlers.js';
import { createDispatch, type Handlers } from './dispatch.js';
import type { Dispatch } from '../../transport/rpc-server.js';
import { sendMessage } from '../../messaging/send.js';
import { inScope, projectRoot } from '../../policy/scope.js';

/** The hub's API: every method's handler behind the one dispatcher. */
export function createApi(hub: Hub): Dispatch {
  return createDispatch(hub, createHandlers(hub));
}

export function createHandlers(hub: Hub): Handlers {
  return {
    'hub.info': () => hub.info(),

    'session.register': async (params, { conn }) => {
      const reg = await registerBound(hub, params, conn);
      const { session, token, resumed } = reg;
      if (params.hook === true) session.hooksSeenAt = hub.clock.now();
      return {
        sessionId: session.id,
        token,
        name: session.name,
        ref: hub.table.refOf(session.id),
        address: session.address,
        resumed,
        ...(reg.nameChange !== undefined ? { nameChange: reg.nameChange } : {}),
      };
    },

    'session.state': async (params, { session }) => {
      let s = session;
      // A hook names the conversation: bound to it, or the session of its earlier process comes back.
      if (params.hook === true && params.agentSessionId !== undefined) {
        if (s.conversation === undefined) s = await bindConversation(hub, s, params.agentSessionId);
        s.agentThreadId = params.agentSessionId;
      }
      if (params.hook === true && s.hooksSeenAt === null) hub.events.emit({ type: 'sessions.changed' });
      if (params.hook === true) s.hooksSeenAt = hub.clock.now();
      if (params.hook === true) hub.wake.turnReported(s.id); // before any new wake below
      if (s.state !== params.state) {
        s.state = params.state;
        s.stateSince = hub.clock.now();
        if (params.state === 'idle') hub.idle.targetIdle(s.id);
        hub.events.emit({ type: 'sessions.changed' });
      }
      // A Stop hook ends a turn even when the session was already idle (e.g. it never reported busy).
      if (params.state === 'idle' && params.hook === true) hub.wake.wentIdle(s.id);
      return { state: s.state };
    },

    'session.mode': async (params, { session: s }) => {
      const before = modeClass(s);
      const verified = params.verified !== false;
      // An unverified report that repeats what the hub knows changes nothing (not even where the mode came from).
      if (!verified && s.modeKnown !== false && s.permissionMode === params.permissionMode)
        return { permissionMode: s.permissionMode };
      s.permissionMode = params.permissionMode;
      if (params.bypassAvailable !== undefined) s.bypassAvailable = params.bypassAvailable;
      s.modeSource = verified ? (params.source ?? 'declared') : 'unverified';
      // An unverified report may not move the class: we cannot know it, so it is unknown (fail closed both ways).
      if (verified) s.modeKnown = true;
      else if (modeClass({ ...s, modeKnown: true }) !== before) s.modeKnown = false;
      await hub.persist(s);
      await hub.admission.reevaluate(s, { release: params.verified !== false });
      hub.events.emit({ type: 'sessions.changed' });
      return { permissionMode: s.permissionMode };
    },

    'session.rename': async (params, { session: s }) => {
      const name = validName(params.name);
      if (name === undefined) throw new HubError('name_invalid');
      if (nameHeldByOther(hub.table, name, s.address)) throw new HubError('name_taken');
      hub.table.rename(s, name);
      await hub.persist(s);
      hub.events.emit({ type: 'sessions.changed' });
      const change = nameChange(params.name, name);
      return { name, ref: hub.table.refOf(s.id), ...(change !== undefined ? { nameChange: change } : {}) };
    },

    'session.unregister': async (_params, { session }) => {
      await hub.retire(session.id, 'final'); // its adapter says it is ending: no resume
      return { ok: true };
    },

    'agents.list': (_params, { session }) => {
      const rows = hub.table.agentRows(session?.id, (s) => {
        const depth = hub.mailboxes.depth(s.id);
        const inbound = hub.admission.effective(s).inbound;
        return {
          canReceive: depth < hub.limits.inboxItems && inbound.value !== 'refuse',
          inboxDepth: depth,
          inbound: { value: inbound.value, source: inbound.source },
          waiting: hub.wake.waitingFor(s.id),
        };
      });
      if (session === undefined) return { rows }; // the person sees every session
      // A session lists only the sessions in its scope (crossSessionScope; policy/scope.ts), and is told which.
      const scope = hub.admission.effective(session).crossSessionScope;
      const me = { cwd: session.cwd, scope: scope.value };
      const byAddress = new Map([...hub.table.live.values()].map((s) => [s.address, s]));
      const visible = rows.filter((r) => {
        const s = byAddress.get(r.address);
        if (s !== undefined)
          return inScope(me, { cwd: s.cwd, scope: hub.admission.effective(s).crossSessionScope.value });
        return inScope(me, { cwd: r.cwd, scope: 'machine', remote: r.machine !== null });
      });
      return {
        rows: visible,
        scope: {
          value: scope.value,
          source: scope.source,
          project: scope.value === 'project' ? projectRoot(session.cwd) : null,
        },
      };
    },

    'message.send': (params, { session }) => sendMessage(hub, session, params),

    'inbox.fetch': async (params, { session: s }) => {
      // One answer stays within a frame (plus its first item, itself always under one): every client can read it.
      const budget = hub.limits.frameBytes / 2;
      let items = hub.mailboxes.fetch(s.id, params.limit, budget);
      if (items.length === 0 && params.waitMs > 0) {
        await waitForItem(hub, s.id, Math.min(params.waitMs, hub.limits.fetchWaitMs));
        items = hub.mailboxes.fetch(s.id, params.limit, budget);
      }
      if (items.length === 0) hub.quiet.vouch(s.id); // in the same turn as the fetch: no item can come between
      return { items };
    },

    'inbox.ack': async (params, { session: s }) => {
      const removed = await hub.mailboxes.ack(s.id, params.ids);
      for (const item of removed) {
        if (item.kind !== 'message') continue;
        const from = { msgId: item.id, fromAddress: item.from.address, fromSessionId: item.from.sessionId };
        hub.receipts.tell(from, s, 'delivered', 'handed to the agent');
      }
      return { acked: removed.length };
    },

    'inbox.subscribe': (_params, { session, conn }) => {
      hub.connections.subscribe(session.id, conn);
      return { subscribed: true };
    },

    ...createUiHandlers(hub),
    ...createRuleHandlers(hub),
    ...createTeamHandlers(hub),
    ...createUserHandlers(hub),
    ...createHistoryHandlers(hub),
  };
}

function waitForItem(hub: Hub, sessionId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = hub.mailboxes.onItem((id) => {
      if (id === sessionId) done();
    });
  });
}

// The person at the keyboard acting through a user interface: a message
// from the user into a session's inbox (framed as the user's, not a peer's,
// and not subject to the inbound policy, which guards against peers), an
// idle subscription whose notice goes to the user, not to an agent, agent
// setup (the plan `switchboard setup` makes: core/setup/planning.ts), and
// the web UI's sign-in URL for `switchboard ui` (auth `none`: only this OS
// user reaches the socket; why that is enough is in docs/security.md).

import { randomUUID } from 'node:crypto';
import { HubError } from '../../protocol/errors.js';
import { resolveTo } from '../../registry/resolution.js';
import type { SessionRecord } from '../../registry/session.js';
import { escapeBody } from '../../protocol/cc-wire.js';
import type { SetupAgent } from '../../setup/agents.js';
import { detectAgents } from '../../setup/detect.js';
import { planSetup, withVersions } from '../../setup/planning.js';
import { applyChanges, describeChange, SetupError } from '../../setup/edit.js';
import type { Hub } from '../hub.js';
import type { Handler } from './dispatch.js';
import { USER_SUBSCRIBER } from '../../idle/idle.js';

function target(hub: Hub, to: string): SessionRecord {
  const r = resolveTo(to, hub.table);
  if (r.kind !== 'row') throw new HubError('target_not_found', { candidates: [] });
  if (r.row.session === undefined) throw new HubError('not_hosted');
  return r.row.session;
}

export function createUserHandlers(hub: Hub): {
  [M in 'user.send' | 'user.subscribe' | 'setup.detect' | 'setup.plan' | 'setup.apply' | 'ui.address']: Handler<M>;
} {
  /** Agent setup as the user: the plan `switchboard setup` makes (the same version found the same way). */
  const planFor = async (p: {
    agent: SetupAgent;
    uninstall?: boolean | undefined;
    transport?: 'stdio' | 'http' | undefined;
  }) => {
    try {
      return await planSetup(p.agent, await hub.setupEnv(), { uninstall: p.uninstall, transport: p.transport });
    } catch (err) {
      if (err instanceof SetupError) throw new HubError('invalid_params', { issues: [err.message] });
      throw err;
    }
  };
  return {
    'ui.address': () => {
      const port = hub.uiPort;
      if (port === undefined) return { url: null, port: null };
      hub.log.info('the web UI sign-in URL was given to a caller on the hub socket (switchboard ui)');
      return { url: `http://127.0.0.1:${port}/#token=${hub.uiToken}`, port };
    },
    'setup.detect': async () => {
      const e = await hub.setupEnv();
      return { agents: await withVersions(detectAgents(e), e) };
    },
    'setup.plan': async (p) => {
      const r = await planFor(p);
      return {
        changes: r.plan.changes.map((c) => ({ file: c.file, diff: describeChange(c) })),
        agentVersion: r.agentVersion,
      };
    },
    'setup.apply': async (p) => {
      const changes = (await planFor(p)).plan.changes;
      return { changed: changes.map((c) => c.file), backups: applyChanges(changes, new Date(hub.clock.now())) };
    },
    'user.send': async (p) => {
      const s = target(hub, p.to);
      const id = randomUUID();
      const text = `<user-message source="switchboard-ui">\n${escapeBody(p.message).replace(/<\/user-message/gi, '&lt;/user-message')}\n</user-message>`;
      const added = await hub.mailboxes.put(s.id, {
        kind: 'message',
        id,
        from: { address: 'user', name: 'your user (Switchboard UI)', sessionId: null },
        summary: null,
        text,
        at: hub.clock.now(),
        approvedAfterHold: false,
      });
      hub.recordActivity({
        at: hub.clock.now(),
        kind: 'decision',
        status: added === 'added' ? 'deliver' : 'drop',
        sender: 'user',
        receiver: s.name,
        msgId: id,
        reason: 'a message from the user',
      });
      return { status: added === 'added' ? 'queued' : 'dropped', msg_id: id, to: { name: s.name, address: s.address } };
    },
    'user.subscribe': (p) => {
      const s = target(hub, p.to);
      hub.idle.subscribe({ id: USER_SUBSCRIBER }, s, `${s.name} [${hub.table.refOf(s.id)}]`);
      return { status: 'subscribed', to: { name: s.name, address: s.address } };
    },
  };
}

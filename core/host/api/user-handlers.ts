// The person at the keyboard acting through a user interface: a message
// from the user into a session's inbox (framed as the user's, not a peer's,
// and not subject to the inbound policy, which guards against peers), and
// an idle subscription whose notice goes to the user, not to an agent.

import { randomUUID } from 'node:crypto';
import { HubError } from '../../protocol/errors.js';
import { resolveTo } from '../../registry/resolution.js';
import type { SessionRecord } from '../../registry/session.js';
import { escapeBody } from '../../protocol/cc-wire.js';
import { currentSetupEnv, plan, type SetupAgent } from '../../setup/agents.js';
import { detectAgents } from '../../setup/detect.js';
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
  [M in 'user.send' | 'user.subscribe' | 'setup.detect' | 'setup.plan' | 'setup.apply']: Handler<M>;
} {
  /** Agent setup as the user: the same plan `switchboard setup` makes, for the hub's own CLI path. */
  const planFor = (p: { agent: SetupAgent; uninstall?: boolean | undefined }) => {
    try {
      return plan(p.agent, currentSetupEnv(), p.uninstall === true);
    } catch (err) {
      if (err instanceof SetupError) throw new HubError('invalid_params', { issues: [err.message] });
      throw err;
    }
  };
  return {
    'setup.detect': () => ({ agents: detectAgents(currentSetupEnv()) }),
    'setup.plan': (p) => {
      return { changes: planFor(p).changes.map((c) => ({ file: c.file, diff: describeChange(c) })) };
    },
    'setup.apply': (p) => {
      const changes = planFor(p).changes;
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

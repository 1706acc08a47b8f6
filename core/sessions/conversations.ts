// Sessions bound to their agent's conversation (docs/design.md#5-sessions-names-and-addresses):
// registering with the conversation a hook names, and a conversation that
// comes back in a new process taking its earlier session back.

import type { MethodParams } from '../protocol/methods.js';
import { normalizeName } from '../registry/names.js';
import { sameProcessStart } from '../registry/proc.js';
import { persisted, type SessionRecord } from '../registry/session.js';
import type { RpcConnection } from '../transport/rpc-server.js';
import { activateSession, registerSession, type LifecyclePorts, type Registered } from './lifecycle.js';

/** Registers or resumes; a conversation the hook names gets its session back (bindConversation). */
export async function registerBound(
  hub: LifecyclePorts,
  params: MethodParams<'session.register'>,
  conn: RpcConnection,
): Promise<Registered> {
  const reg = await registerSession(hub, params, conn);
  if (params.conversation === undefined) return reg;
  const session = await bindConversation(hub, reg.session, params.conversation);
  return session === reg.session ? reg : { ...reg, session, resumed: true };
}

/**
 * Binds a live session to its agent's conversation. When that conversation
 * ended before (its process exited) and waits dormant here for the same
 * agent, and `s` is new (nothing unread, nothing held), `s` gives way to it:
 * the old session comes back bound to this process, with its id, address,
 * name (peers' pins hold), inbox and held messages, in the folder it runs in
 * now (Claude Code resumes a conversation from any folder), and `s`'s
 * credentials act as it from now on. Returns the session the caller now is.
 */
export async function bindConversation(
  hub: LifecyclePorts,
  s: SessionRecord,
  conversation: string,
): Promise<SessionRecord> {
  if (s.conversation === conversation) return s;
  const back = [...hub.table.dormant.values()].find(
    (d) => d.session.conversation === conversation && d.session.agent === s.agent,
  )?.session;
  const fresh = hub.mailboxes.depth(s.id) === 0 && hub.admission.held.forReceiver(s.id).length === 0;
  if (back === undefined || !fresh || s.conversation !== undefined) {
    if (s.conversation !== undefined) return s; // one conversation per session (a Codex thread keeps its own)
    s.conversation = conversation;
    await hub.journal.append({ t: 's', s: persisted(s) });
    return s;
  }
  // `s` leaves without a trace (nothing was sent to it yet); its journal record goes with its drop.
  hub.table.retire(s.id, hub.clock.now());
  hub.table.dormant.delete(s.id);
  hub.servers.get(s.id)?.close();
  hub.servers.delete(s.id);
  hub.connections.move(s.id, back.id);
  hub.forgetSession(s.id);
  await hub.mailboxes.drop(s.id);
  const taken = nameTakenFrom(hub, back); // by a session that came meanwhile
  const revived = await activateSession(
    hub,
    {
      ...back,
      ...(taken ? { name: s.name } : {}),
      cwd: s.cwd,
      pid: s.pid,
      procStart: s.procStart,
      liveness: s.liveness,
      tokenHash: s.tokenHash,
      permissionMode: s.permissionMode,
      modeKnown: s.modeKnown !== false,
      ...(s.modeSource !== undefined ? { modeSource: s.modeSource } : {}),
      bypassAvailable: s.bypassAvailable,
      interactive: s.interactive,
      aliases: [...(back.aliases ?? []).slice(-7), s.id],
    },
    null,
    back,
  );
  revived.connectionId = s.connectionId;
  hub.log.info('conversation resumed', { id: revived.id, name: revived.name, replaced: s.id });
  return revived;
}

/**
 * Another row holds `back`'s name: not `back` itself, and not the registry entry its own earlier process left
 * (Claude Code's file outlives its process until discovery sees it gone, and carries the same name: on a loaded
 * machine the resume came first and took the new process's name instead).
 */
function nameTakenFrom(
  hub: LifecyclePorts,
  back: Pick<SessionRecord, 'name' | 'address' | 'pid' | 'procStart'>,
): boolean {
  return hub.table
    .named(normalizeName(back.name))
    .some(
      (row) =>
        row.address !== back.address &&
        !(
          row.stock !== undefined &&
          row.stock.entry.pid === back.pid &&
          sameProcessStart(row.stock.entry.procStart, back.procStart)
        ),
    );
}

// Who a session is inside a team, decided by the roster (docs/claude-code-formats.md#2-team-roster) and
// never by the session's own registration. A session writes under a member
// name only when the roster lists that name; it writes as the lead only when
// the roster's `leadSessionId` is that session's hub id (a team the session
// leads). Claude Code's readers grant lead-only frames to `from: "team-lead"`.

import { LEAD } from './team-frames.js';
import type { TeamConfig } from './roster.js';

/** What a session says about itself: its hub session id and the member name it registered with. */
export interface SenderClaim {
  sessionId: string;
  member: string;
}

export type SenderVerdict =
  { ok: true; name: string; lead: boolean } | { ok: false; code: 'not_a_member' | 'not_lead'; message: string };

/** The roster's lead member name: the member whose agentId is `leadAgentId`, else `team-lead`. */
export function leadMemberName(cfg: TeamConfig): string {
  return cfg.members.find((m) => m.agentId === cfg.leadAgentId)?.name ?? LEAD;
}

/** Whether the roster names this hub session as the team's lead. */
export function isRosterLead(cfg: TeamConfig, sessionId: string): boolean {
  return typeof cfg.leadSessionId === 'string' && cfg.leadSessionId !== '' && cfg.leadSessionId === sessionId;
}

export function rosterSender(cfg: TeamConfig, claim: SenderClaim): SenderVerdict {
  const lead = isRosterLead(cfg, claim.sessionId);
  if (claim.member === LEAD || claim.member === leadMemberName(cfg)) {
    if (!lead)
      return {
        ok: false,
        code: 'not_lead',
        message: `the roster of ${cfg.name} does not name this session as its lead (${claim.member})`,
      };
    return { ok: true, name: claim.member, lead };
  }
  if (!cfg.members.some((m) => m.name === claim.member))
    return { ok: false, code: 'not_a_member', message: `${claim.member} is not in the roster of ${cfg.name}` };
  return { ok: true, name: claim.member, lead };
}

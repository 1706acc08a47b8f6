// What the person reads when the desktop hub cannot start: the app fails
// closed (never a second hub, never an unsafe socket) and says why.

import { EndpointError } from '../core/transport/endpoint.js';
import { HubRunningError } from '../core/transport/hub-lock.js';
import { JournalError } from '../core/journal/journal.js';

export function startFailureText(err: unknown): { title: string; detail: string } {
  if (err instanceof HubRunningError) {
    return {
      title: 'Another Switchboard hub is running',
      detail: `A hub for this user already listens on ${err.socket}. Only one may run. Stop the other one (a "switchboard serve" in a terminal, or another copy of the app) and start Switchboard again.`,
    };
  }
  if (err instanceof EndpointError) {
    const title =
      err.role === undefined
        ? 'Switchboard refused an unsafe socket path'
        : `Switchboard refused an unsafe ${err.role} directory`;
    return {
      title,
      detail: `${err.message}\nNothing was started. Fix the directory's owner and mode (0700, yours, not a symlink) and try again.`,
    };
  }
  if (err instanceof JournalError) {
    if (err.code === 'state_locked') {
      const who = err.holder ? ` (pid ${err.holder.pid}, ${err.holder.socket})` : '';
      return {
        title: 'Another Switchboard hub uses this state directory',
        detail: `${err.message}${who}\nOnly one hub may use a state directory. Stop the other one and start Switchboard again.`,
      };
    }
    return {
      title: 'Switchboard refused its message journal',
      detail: `${err.message}\nNothing was started and nothing was changed, so no queued message is lost. Make the journal a regular file of yours with mode 0600 (or move it aside) and try again.`,
    };
  }
  return { title: 'Switchboard could not start', detail: err instanceof Error ? err.message : String(err) };
}

// What the person reads when the desktop hub cannot start: the app fails
// closed (never a second hub, never an unsafe socket) and says why.

import { EndpointError } from '../core/host/endpoint.js';
import { HubRunningError } from '../core/host/hub-lock.js';

export function startFailureText(err: unknown): { title: string; detail: string } {
  if (err instanceof HubRunningError) {
    return {
      title: 'Another Switchboard hub is running',
      detail: `A hub for this user already listens on ${err.socket}. Only one may run. Stop the other one (a "switchboard serve" in a terminal, or another copy of the app) and start Switchboard again.`,
    };
  }
  if (err instanceof EndpointError) {
    return { title: 'Switchboard refused an unsafe runtime directory', detail: `${err.message}\nNothing was started. Fix the directory's owner and mode (0700, yours, not a symlink) and try again.` };
  }
  return { title: 'Switchboard could not start', detail: err instanceof Error ? err.message : String(err) };
}

// The "nothing pending" mark a hub keeps per session for command hooks: a
// file `<runtimeDir>/quiet/<sessionId>` (0600, in a 0700 directory) holding
// `v1 <hub pid> <valid until, epoch ms>`. While it is there, unexpired and
// its hub alive, the session's inbox had nothing to hand over when the hub
// last looked, and a post-tool hook may exit without calling the hub. Its
// absence, a bad line or an expired one only means "ask the hub". Pure.

import path from 'node:path';

export const QUIET_DIR = 'quiet';
const SESSION_ID = /^[0-9A-Za-z_-]{1,64}$/;
const LINE = /^v1 ([1-9][0-9]{0,9}) ([0-9]{1,16})\n?$/;

/** The mark's path for a session id, or undefined for an id that is not a plain file name. */
export function quietMarkPath(runtimeDir: string, sessionId: string): string | undefined {
  return SESSION_ID.test(sessionId) ? path.join(runtimeDir, QUIET_DIR, sessionId) : undefined;
}

export function formatQuietMark(hubPid: number, until: number): string {
  return `v1 ${hubPid} ${Math.floor(until)}\n`;
}

export function parseQuietMark(text: string): { hubPid: number; until: number } | undefined {
  const m = LINE.exec(text);
  return m === null ? undefined : { hubPid: Number(m[1]), until: Number(m[2]) };
}

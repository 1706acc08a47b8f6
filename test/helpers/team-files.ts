// A hub's Claude Code home holding the fixture team and task list, and the
// reason a hub call failed with: for tests of other programs' team files.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { RpcError } from '../../core/client/client.js';
import type { TestHub } from './hub.js';
import { FIXTURES } from './peer.js';

/** The fixture team (test/fixtures/claude-code/teams) and its task list. */
export const TEAM = 'session-3f9a1c2e';

/** Copies the fixture teams and tasks into the hub's Claude Code home; returns that root. */
export function withFixtureTeam(t: TestHub): string {
  const root = t.hub.teams.root;
  fs.mkdirSync(root, { recursive: true });
  for (const sub of ['teams', 'tasks']) fs.cpSync(path.join(FIXTURES, sub), path.join(root, sub), { recursive: true });
  return root;
}

/** The reason the call failed with (the test fails when it succeeded or threw something else). */
export async function rpcReason(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => new Error('the call succeeded'),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RpcError);
  return (e as RpcError).reason;
}

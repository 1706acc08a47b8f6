// A scripted stock Claude Code session for tests: a live process, its
// registry file in <claude home>/sessions/, and a fake peer socket in a
// private cc-socks directory that records lines and can write back.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processStartTime } from '../../../core/registry/proc.js';
import { fakePeer, writeSocket, type FakePeer } from '../../helpers/peer.js';
import { stopProcess } from '../../helpers/processes.js';

export interface StockPeer {
  pid: number;
  socketPath: string;
  registry: string;
  peer: FakePeer;
  proc: ChildProcess;
  /** Writes one line (or raw text) to a socket, as Claude Code would. */
  send(to: string, line: unknown): Promise<void>;
  stop(): Promise<void>;
}

export function sessionsDir(claudeHome: string): string {
  const dir = path.join(claudeHome, 'sessions');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export async function stockPeer(
  claudeHome: string,
  socksDir: string,
  extra: Record<string, unknown> = {},
  /** `proc`: the process the entry names (default: a new `sleep`); the peer's stop() ends it either way. */
  opts: { key?: string; listen?: boolean; proc?: ChildProcess } = {},
): Promise<StockPeer> {
  fs.mkdirSync(socksDir, { recursive: true, mode: 0o700 });
  const proc = opts.proc ?? spawn('sleep', ['600'], { stdio: 'ignore' });
  const pid = proc.pid!;
  const socketPath = path.join(socksDir, `${pid}.sock`);
  const peer =
    opts.listen === false
      ? { path: socketPath, lines: [], raw: [], close: async () => undefined }
      : await fakePeer(socketPath);
  const dir = sessionsDir(claudeHome);
  const registry = path.join(dir, `${pid}.json`);
  const entry = {
    pid,
    sessionId: `cc-${pid}`,
    cwd: '/home/dev/myapp',
    startedAt: Date.now(),
    procStart: processStartTime(pid),
    version: '2.1.231',
    peerProtocol: 1,
    kind: 'interactive',
    entrypoint: 'cli',
    messagingSocketPath: socketPath,
    name: `myapp-${pid}`,
    nameSource: 'derived',
    status: 'idle',
    updatedAt: Date.now(),
    ...extra,
  };
  fs.writeFileSync(registry, JSON.stringify(entry));
  if (opts.key !== undefined) {
    const hash = createHash('sha256').update(path.resolve(socketPath)).digest('hex');
    fs.writeFileSync(
      path.join(dir, `${pid}.${hash}.key`),
      JSON.stringify({ peerToken: opts.key, procStart: entry.procStart }),
      { mode: 0o600 },
    );
  }
  return {
    pid,
    socketPath,
    registry,
    peer,
    proc,
    send: (to, line) => writeSocket(to, typeof line === 'string' ? line : JSON.stringify(line) + '\n'),
    async stop() {
      await stopProcess(proc);
      await peer.close();
      fs.rmSync(registry, { force: true });
    },
  };
}

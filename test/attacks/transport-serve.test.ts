// Hostile clients against a real `switchboard serve` process (the
// transport part): the process must survive and keep serving the CLI. A
// client that never reads its answers must not grow the hub (measured by the
// serve process's VmRSS), and 600 idle connections must not lock the CLI out.
// Needs dist/cli (npm run build, or node cli/build.mjs).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { sleep, tempDirs, until } from '../helpers/hub.js';

let served: Served | undefined;
const opened: net.Socket[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy();
  await served?.stop();
  served = undefined;
});

const MIB = 1024 * 1024;

function rssBytes(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb * 1024;
}

function connect(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath);
    s.on('error', () => undefined);
    opened.push(s);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

/**
 * Waits until the hub stops taking bytes from `s` (unchanged for 1 s) or took them all. A bounded negative
 * check, kept as one: another process stopping its reads sends no event; only bytes that stay put say so.
 */
async function settled(s: net.Socket, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let last = -1;
  let sameSince = Date.now();
  while (Date.now() < deadline) {
    const now = s.writableLength;
    if (now === 0) return;
    if (now !== last) {
      last = now;
      sameSince = Date.now();
    } else if (Date.now() - sameSince > 1000) return;
    await sleep(100);
  }
}

describe('switchboard serve under hostile clients', () => {
  it('stops reading from a client that never reads its answers; the hub does not grow and keeps serving', async () => {
    const env = cliEnv(tempDirs());
    served = await serveCli(env);
    const pid = served.ready.pid;
    expect((await runCli(['status', '--json'], env)).code).toBe(0);
    const before = rssBytes(pid);
    const hog = await connect(served.ready.socket);
    hog.pause(); // never reads
    const batch = '{"jsonrpc":"2.0","id":1,"method":"hub.info"}\n'.repeat(1000);
    for (let i = 0; i < 300; i++) hog.write(batch); // 300 000 requests, ~80 MB of answers
    await settled(hog, 30_000);
    const grown = rssBytes(pid) - before;
    // Old code: the answers pile up in the hub (≥ 60 MiB). Now reading pauses near LIMITS.unsentBytes.
    expect(grown).toBeLessThan(30 * MIB);
    expect(hog.writableLength).toBeGreaterThan(0); // the hub stopped taking requests
    const status = await runCli(['status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ pid });
    hog.destroy();
  }, 60_000);

  it('600 idle connections to hub.sock do not make the CLI fail overloaded', async () => {
    const env = cliEnv(tempDirs());
    served = await serveCli(env);
    for (let i = 0; i < 600; i++) await connect(served.ready.socket);
    const status = await runCli(['status', '--json'], env);
    expect(status.stdout).not.toContain('overloaded');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ pid: served.ready.pid });
  }, 60_000);

  it('survives 20 connections sending garbage and still answers the CLI', async () => {
    const env = cliEnv(tempDirs());
    served = await serveCli(env);
    const floods = await Promise.all(Array.from({ length: 20 }, () => connect(served!.ready.socket)));
    const garbage = 'not json\n{"jsonrpc":"2.0","id":{},"method":1}\n[]\n\u0000\u00ff\n'.repeat(1250); // 5000 frames each
    for (const f of floods) {
      f.on('data', () => undefined); // these read, so only fairness is at stake
      f.write(garbage);
    }
    const status = await runCli(['status', '--json'], env);
    expect(status.code).toBe(0);
    expect(served.child.exitCode).toBeNull();
  }, 60_000);
});

describe('switchboard serve out of file descriptors', () => {
  // A guard, not a regression: libuv's EMFILE handling kept the old code alive too.
  it('survives accept failing with EMFILE and serves again once descriptors are free', async () => {
    const env = cliEnv(tempDirs());
    served = await serveCli(env);
    const pid = served.ready.pid;
    const inUse = fs.readdirSync(`/proc/${pid}/fd`).length;
    const hard =
      /Max open files\s+\d+\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1] ?? 'unlimited';
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${inUse + 8}:${hard}`]);
    const tries = await Promise.allSettled(Array.from({ length: 40 }, () => connect(served!.ready.socket)));
    expect(tries.some((t) => t.status === 'fulfilled')).toBe(true);
    // The hub met EMFILE: past its descriptors, libuv takes a waiting connection and closes it at once.
    await until(() => opened.some((s) => s.closed));
    for (const s of opened.splice(0)) s.destroy();
    expect(served.child.exitCode).toBeNull();
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${hard}:${hard}`]);
    const status = await runCli(['status', '--json'], env);
    expect(status.code).toBe(0);
  });
});

// `switchboard mcp` and a message from the agent over the SDK's 10 MiB line
// buffer (found by a red-team pass): the transport closed itself, `mcp`
// ended and unregistered its session for good, and a peer's waiting message
// was reported undeliverable. Now the line is dropped with a stderr line and
// the server answers the next request; the session stays.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedLines } from '../../cli/agent/bounded-stdin.js';
import { CLI, cliEnv } from '../helpers/cli.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';
import { stopAll } from '../helpers/processes.js';

let th: TestHub | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  await stopAll(children.splice(0));
  await th?.close();
  th = undefined;
});

describe('boundedLines', () => {
  it('passes lines under the limit whole, across chunks, and drops a longer one whole', async () => {
    const input = new PassThrough();
    const dropped: number[] = [];
    const out = boundedLines(input, 10, (n) => dropped.push(n));
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    input.write('short\nsplit ');
    input.write('ok\n' + 'x'.repeat(6));
    input.write('y'.repeat(20) + '\nafter\n');
    input.end();
    await new Promise((r) => out.once('end', r));
    expect(text).toBe('short\nsplit ok\nafter\n');
    expect(dropped).toEqual([26]);
  });
});

describe('switchboard mcp and an over-long message', () => {
  it('drops it with a note on stderr and goes on serving the session', async () => {
    th = await startHub();
    const t = th;
    const child = spawn(process.execPath, [CLI, 'mcp', '--agent', 'claude', '--name', 'me'], {
      env: cliEnv(t.dirs),
      cwd: t.dirs.root,
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await until(() => [...t.hub.table.live.values()].some((s) => s.name === 'me'));
    child.stdin.write(`{"jsonrpc":"2.0","id":0,"method":"ping","params":{"x":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`);
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) + '\n',
    );
    await until(() => out.includes('"id":1'));
    expect(err, 'says so on stderr').toMatch(/dropped a message of \d+ bytes/);
    expect(child.exitCode, 'still running').toBe(null);
    expect(
      [...t.hub.table.live.values()].some((s) => s.name === 'me'),
      'keeps its session',
    ).toBe(true);
  }, 60_000);
});

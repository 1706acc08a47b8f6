// Command line and names, against a real `serve`: a second
// `session start --name api` never makes the first unreachable (it is
// api-2, and says so); rewritten names are reported; send errors name what
// was typed and the closest names; a 2-character prefix is too short; long
// messages come from stdin or a file up to the 256 KiB limit, and an
// oversize one is refused with both sizes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDirs, type TestDirs } from '../helpers/hub.js';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { stopProcess } from '../helpers/processes.js';

let served: Served;
let dirs: TestDirs;
let env: NodeJS.ProcessEnv;
let holder: ChildProcess;

beforeAll(async () => {
  dirs = tempDirs();
  env = cliEnv(dirs);
  served = await serveCli(env);
  holder = spawn('sleep', ['600'], { stdio: 'ignore' });
});
afterAll(async () => {
  await stopProcess(holder);
  await served.stop();
});

interface Reg {
  sessionId: string;
  token: string;
  name: string;
  ref: string;
  address: string;
  env: NodeJS.ProcessEnv;
}

async function start(name: string): Promise<Reg> {
  const args = ['session', 'start', '--cwd', dirs.root, '--name', name, '--pid', String(holder.pid)];
  const r = await runCli([...args, '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  const reg = JSON.parse(r.stdout) as Reg;
  return { ...reg, env: { ...env, SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token } };
}

async function inboxTexts(who: Reg): Promise<string[]> {
  const r = await runCli(['inbox', '--ack', '--json'], who.env);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { items: Array<{ kind: string; text: string }> }).items
    .filter((i) => i.kind === 'message')
    .map((i) => i.text);
}

describe('session names', () => {
  it('a second session start --name api gets api-2 and leaves api reachable by name', async () => {
    const web = await start('web-names');
    const api = await start('api');
    const first = await runCli(['send', '--to', 'api', '--summary', 's', '--message', 'one', '--json'], web.env);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'queued', to: { address: api.address } });

    const second = await runCli(
      ['session', 'start', '--cwd', dirs.root, '--name', 'api', '--pid', String(holder.pid)],
      env,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout, 'the second is api-2').toMatch(/^name\s+api-2$/m);
    expect(second.stderr, 'and is told why').toContain(`held by the live session api [${api.ref}]`);
    expect(second.stderr).toContain('"api-2"');

    // Every sender still reaches the first api by name: the one that had messaged it, and a new one.
    const again = await runCli(['send', '--to', 'api', '--summary', 's', '--message', 'two', '--json'], web.env);
    expect(JSON.parse(again.stdout), 'a sender that had messaged api still reaches it').toMatchObject({
      status: 'queued',
      to: { address: api.address },
    });
    const other = await start('other-names');
    const fresh = await runCli(['send', '--to', 'api', '--summary', 's', '--message', 'three', '--json'], other.env);
    expect(JSON.parse(fresh.stdout), 'a new sender reaches api').toMatchObject({
      status: 'queued',
      to: { address: api.address },
    });
    expect((await inboxTexts(api)).length).toBe(3);
  });

  it('a rewritten name is reported as rewritten, on start and on rename', async () => {
    const args = ['session', 'start', '--cwd', dirs.root, '--name', 'Build Bot', '--pid', String(holder.pid)];
    const r = await runCli(args, env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^name\s+build-bot$/m);
    expect(r.stderr).toContain('"Build Bot" was rewritten to "build-bot"');
    const json = JSON.parse(
      (await runCli([...args.slice(0, 5), 'Ｑａ Lead', ...args.slice(6), '--json'], env)).stdout,
    ) as {
      name: string;
      nameChange: { requested: string; reasons: string[] };
    };
    expect(json).toMatchObject({ name: 'qa-lead', nameChange: { requested: 'Ｑａ Lead', reasons: ['rewritten'] } });
    const bot = await start('plain-bot');
    const renamed = await runCli(['session', 'rename', 'Night Shift'], bot.env);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stderr).toContain('"Night Shift" was rewritten to "night-shift"');
  });
});

describe('send errors name what was typed', () => {
  let sender: Reg;
  let billing: Reg;
  beforeAll(async () => {
    sender = await start('typist');
    billing = await start('billing');
  });

  it('a typo offers the closest names and sends nothing', async () => {
    const typo = await runCli(['send', '--to', 'billnig', '--summary', 's', '--message', 'x'], sender.env);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(`No live session matches "billnig". Did you mean billing [${billing.ref}]?`);
    expect(await inboxTexts(billing)).toEqual([]);
  });

  it('a 2-character prefix is too short and sends nothing', async () => {
    const short = await runCli(['send', '--to', 'bi', '--summary', 's', '--message', 'x', '--json'], sender.env);
    expect(short.code).toBe(1);
    const err = (JSON.parse(short.stdout) as { error: { reason: string; message: string } }).error;
    expect(err.reason).toBe('to_too_short');
    expect(err.message).toContain('"bi" is too short');
    expect(err.message).toContain(`billing [${billing.ref}]`);
    expect(await inboxTexts(billing)).toEqual([]);
  });
});

describe('long messages', () => {
  it('--message - and --message-file send up to the limit, past what a shell passes as an argument', async () => {
    const writer = await start('writer');
    const reader = await start('reader');
    const big = 'lorem ipsum '.repeat(Math.floor((200 * 1024) / 12)); // 200 KiB: over the 128 KiB argv limit
    const viaStdin = await runCli(
      ['send', '--to', 'reader', '--summary', 'long', '--message', '-'],
      writer.env,
      60_000,
      big,
    );
    expect(viaStdin.code, viaStdin.stderr).toBe(0);
    const file = path.join(dirs.root, 'long.txt');
    fs.writeFileSync(file, `${big}from a file`);
    const viaFile = await runCli(['send', '--to', 'reader', '--summary', 'long', '--message-file', file], writer.env);
    expect(viaFile.code, viaFile.stderr).toBe(0);
    const texts = await inboxTexts(reader);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain(big);
    expect(texts[0]).not.toContain('from a file');
    expect(texts[1]).toContain(`${big}from a file`);
  });

  it('an oversize message is refused with both sizes, from stdin or a file, and nothing is sent', async () => {
    const writer = await start('big-writer');
    const reader = await start('big-reader');
    const over = 'x'.repeat(300 * 1024);
    const want = 'The message is 300 KiB; the limit is 256 KiB';
    const stdin = await runCli(
      ['send', '--to', 'big-reader', '--summary', 's', '--message', '-'],
      writer.env,
      60_000,
      over,
    );
    expect(stdin.code).toBe(1);
    expect(stdin.stderr).toContain(want);
    const file = path.join(dirs.root, 'over.txt');
    fs.writeFileSync(file, over);
    const fromFile = await runCli(
      ['send', '--to', 'big-reader', '--summary', 's', '--message-file', file, '--json'],
      writer.env,
    );
    expect(fromFile.code).toBe(1);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({
      error: { reason: 'message_too_large', message: expect.stringContaining(want) },
    });
    expect(await inboxTexts(reader)).toEqual([]);
  });
});

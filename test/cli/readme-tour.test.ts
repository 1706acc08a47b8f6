// The README's one-minute tour, run as written: its first block is the hub's
// terminal, its second the user's shell, one command at a time in one bash
// (so `$$`, `$API` and exports carry over as they do for a reader), with a
// `switchboard` on PATH that is this build. Each command must succeed and say
// what the tour's comment promises; a tour line this test has no expectation
// for, or an expectation whose line left the tour, fails it, so the README
// and this test change together.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cliEnv } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { stopAll } from '../helpers/processes.js';

const README = new URL('../../README.md', import.meta.url).pathname;

/** The ```sh blocks of the README's tour section, each as its command lines (comments kept: bash ignores them). */
function tourBlocks(): string[][] {
  const text = fs.readFileSync(README, 'utf8');
  const start = text.indexOf('## A one-minute tour');
  expect(start, 'README has a "## A one-minute tour" section').toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]!.split('\n').filter((line) => line.trim() !== ''),
  );
}

/** What each tour command must print, keyed by the start of its line. */
const EXPECT: Array<[string, RegExp[]]> = [
  ['API=$(switchboard session start', []],
  ['eval "$(switchboard session start', []],
  ['switchboard agents', [/^api \[\w+\]/m, /^web \[\w+\] \(you\)/m]],
  ['switchboard send --to api --summary tests', [/^queued: /]],
  ['(eval "$API"; switchboard inbox --ack)', [/Is the auth suite green\?/]],
  ['switchboard inbox ', [/was handed to its agent/]],
  ['(eval "$API"; switchboard session mode', [/^bypassPermissions$/m]],
  ['switchboard send --to api --summary deploy', [/^held: /]],
  ['export SWITCHBOARD_UI_TOKEN=', []],
  ['switchboard held ', [/Deploy to staging/, /mode parity/]],
  ['switchboard held approve --from web', [/^approved web → api \[\w+\]: Deploy to staging$/m]],
];
/** The last line: api has the approved message. */
const LAST: RegExp[] = [/approved="after-hold"/, /Deploy to staging/];

const procs: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  await stopAll(procs.splice(0));
});

/** A shell that runs one line at a time and reports each line's output and exit status. */
function shell(env: NodeJS.ProcessEnv, cwd: string) {
  const bash = spawn('bash', ['--noprofile', '--norc'], { env, cwd });
  procs.push(bash);
  let buffer = '';
  let waiting: ((r: { out: string; code: number }) => void) | undefined;
  bash.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    const m = /\n?__TOUR_DONE__(\d+)\n/.exec(buffer);
    if (m === null || waiting === undefined) return;
    const out = buffer.slice(0, m.index);
    buffer = buffer.slice(m.index + m[0].length);
    waiting({ out, code: Number(m[1]) });
  });
  bash.stdin.write('exec 2>&1\n');
  return (line: string) =>
    new Promise<{ out: string; code: number }>((resolve) => {
      waiting = resolve;
      bash.stdin.write(`${line}\nprintf '\\n__TOUR_DONE__%s\\n' "$?"\n`);
    });
}

describe('the README tour', () => {
  it('runs as written, command by command, and each says what the tour promises', async () => {
    const [hubBlock, userBlock] = tourBlocks();
    expect(hubBlock, 'the first block starts the hub').toEqual([expect.stringMatching(/^switchboard serve --ui\b/)]);
    expect(userBlock!.length).toBe(EXPECT.length + 1);

    const dirs = tempDirs();
    const bin = path.join(dirs.root, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'switchboard'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`,
      { mode: 0o755 },
    );
    const env = cliEnv(dirs, { PATH: `${bin}:${process.env.PATH ?? ''}` });

    // Terminal 1: the hub, ready once it prints the web UI's address.
    const hub = spawn('bash', ['-c', `exec ${hubBlock![0]!}`], { env, cwd: dirs.root });
    procs.push(hub);
    let hubOut = '';
    await new Promise<void>((resolve, reject) => {
      hub.stdout.on('data', (d: Buffer) => {
        hubOut += d.toString();
        if (/User interface: http:\/\/127\.0\.0\.1:\d+\/#token=/.test(hubOut)) resolve();
      });
      hub.on('exit', (code) => reject(new Error(`the hub exited (${code}) before it was ready:\n${hubOut}`)));
    });

    // Terminal 2: the tour, line by line.
    const run = shell(env, dirs.root);
    for (const [i, line] of userBlock!.entries()) {
      const [start, patterns]: [string, RegExp[]] = i < EXPECT.length ? EXPECT[i]! : ['', LAST];
      expect(line.startsWith(start), `tour line ${i + 1} is "${line}"`).toBe(true);
      const { out, code } = await run(line);
      expect({ line, code, out }).toMatchObject({ code: 0 });
      for (const pattern of patterns) expect(out, `output of: ${line}`).toMatch(pattern);
    }
  });
});

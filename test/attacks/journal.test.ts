// The journal under hostile conditions, proved with real `serve` processes:
// a journal past V8's string limit still replays, a journal that is not ours
// (a link, loose, foreign, not a file) stops the hub with a message naming
// it, and two hubs can never share one state directory.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HubClient } from '../../core/client/client.js';
import { startHub } from '../../core/index.js';
import { Journal, JournalError } from '../../core/journal/journal.js';
import { memoryLogger, tempDirs, until } from '../helpers/hub.js';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';

const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.stop('SIGKILL');
});

async function serve(env: NodeJS.ProcessEnv): Promise<Served> {
  const s = await serveCli(env);
  served.push(s);
  return s;
}

/** A hub that must refuse to start: its exit code and stderr (a hub that starts is killed by the timeout). */
function refusedServe(env: NodeJS.ProcessEnv) {
  return runCli(['serve', '--quiet'], env);
}

const JOURNAL = (home: string) => path.join(home, 'journal.ndjson');

describe('journal replay at start (real serve)', () => {
  it('a journal larger than 512 MiB is streamed: every queued message is back after a restart', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    let s = await serve(env);
    let c = await HubClient.connect(s.ready.socket);
    const a = await c.call('session.register', { cwd: '/a', name: 'a' });
    const b = await c.call('session.register', { cwd: '/b', name: 'b', pid: process.pid, liveness: 'pid' });
    const sent = [];
    for (let i = 0; i < 3; i++)
      sent.push(
        (
          await c.call('message.send', {
            sessionId: a.sessionId,
            token: a.token,
            to: 'b',
            summary: 's',
            message: `m${i}`,
          })
        ).msg_id,
      );
    c.close();
    await s.stop('SIGTERM');
    served.length = 0;

    // 600 MiB of NULs (a sparse hole: no disk used), a newline, then the real records.
    // readFileSync(…, 'utf8') cannot make a string this long; the old catch-all replayed it as empty.
    const file = JOURNAL(dirs.home);
    const records = fs.readFileSync(file);
    const hole = 600 * 1024 * 1024;
    const fd = fs.openSync(file, 'r+');
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, Buffer.from('\n'), 0, 1, hole);
    fs.writeSync(fd, records, 0, records.length, hole + 1);
    fs.closeSync(fd);
    expect(fs.statSync(file).size).toBeGreaterThan(512 * 1024 * 1024);

    s = await serve(env);
    c = await HubClient.connect(s.ready.socket);
    expect((await c.call('agents.list', {})).rows.map((r) => r.name)).toContain('b');
    const items = await c.call('inbox.fetch', { sessionId: b.sessionId, token: b.token, limit: 100 });
    expect(items.items.map((i) => i.id).sort()).toEqual(sent.sort());
    // The hole is dead bytes: the first sweeps compact it away.
    await until(() => fs.statSync(file).size < 1024 * 1024);
    c.close();
  }, 60_000);

  it('a journal that is a symbolic link stops the hub with a message naming it; the link target is untouched', async () => {
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    const target = path.join(dirs.root, 'elsewhere.txt');
    fs.writeFileSync(target, 'not yours\n', { mode: 0o644 });
    fs.symlinkSync(target, JOURNAL(dirs.home));
    const r = await refusedServe(cliEnv(dirs));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${JOURNAL(dirs.home)} is a symbolic link`);
    expect(fs.readFileSync(target, 'utf8')).toBe('not yours\n');
    expect(fs.statSync(target).mode & 0o777).toBe(0o644);
  });

  it('a journal other users can read stops the hub (mode named), and nothing is replayed empty', async () => {
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(JOURNAL(dirs.home), '', { mode: 0o644 });
    fs.chmodSync(JOURNAL(dirs.home), 0o644);
    const r = await refusedServe(cliEnv(dirs));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${JOURNAL(dirs.home)} can be read by other users`);
    expect(r.stderr).toContain('mode 644');
  });
});

describe('journal files that are not ours (Journal.open)', () => {
  const uid = process.getuid!();
  it.each([
    ['a directory', 'not_regular', (f: string) => fs.mkdirSync(f)],
    ['a FIFO', 'not_regular', (f: string) => execFileSync('mkfifo', ['-m', '600', f])],
    ['a dangling symbolic link', 'symlink', (f: string) => fs.symlinkSync(path.join(path.dirname(f), 'nowhere'), f)],
    [
      'owned by another user',
      'foreign_owner',
      (f: string) => (fs.writeFileSync(f, '', { mode: 0o600 }), fs.chownSync(f, uid + 1, -1)),
    ],
  ])('%s is refused with %s, never opened empty', async (_what, code, make) => {
    const home = tempDirs().home;
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    make(JOURNAL(home));
    const err = await Journal.open(home, { syncMs: 10, compactBytes: 1 << 20, lineBytes: 1 << 20, uid }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JournalError);
    expect(err).toMatchObject({ code, file: JOURNAL(home) });
    expect((err as Error).message).toContain(JOURNAL(home));
    expect(fs.existsSync(path.join(home, 'nowhere'))).toBe(false); // the dangling link was not followed to create a file
  });

  it('a line over the line limit is dropped and logged, the records around it are replayed', async () => {
    const home = tempDirs().home;
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    const rec = (id: string, text: string) =>
      JSON.stringify({ t: 'i', id: 's1', item: { kind: 'notice', id, text, at: 1 } });
    fs.writeFileSync(JOURNAL(home), [rec('a', 'x'), rec('big', 'y'.repeat(5000)), rec('b', 'x'), ''].join('\n'), {
      mode: 0o600,
    });
    const log = memoryLogger();
    const { journal, state } = await Journal.open(home, { syncMs: 10, compactBytes: 1 << 20, lineBytes: 4096, log });
    journal.close();
    expect([...state.items.get('s1')!.keys()]).toEqual(['a', 'b']);
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'journal: damaged lines dropped',
        fields: expect.objectContaining({ dropped: 1, overLimit: 1 }),
      }),
    );
  });

  it('after a torn last line the next record starts on a line of its own (it used to be glued to the fragment and lost)', async () => {
    const home = tempDirs().home;
    const opts = { syncMs: 10, compactBytes: 1 << 20, lineBytes: 1 << 20 };
    const item = (id: string) => ({ kind: 'notice' as const, id, text: 't', at: 1 });
    const first = await Journal.open(home, opts);
    await first.journal.append({ t: 'i', id: 's1', item: item('x') });
    first.journal.close();
    fs.appendFileSync(JOURNAL(home), '{"t":"i","id":"s1","item":{"kind":"no');
    const second = await Journal.open(home, opts);
    await second.journal.append({ t: 'i', id: 's1', item: item('y') });
    second.journal.close();
    const third = await Journal.open(home, opts);
    third.journal.close();
    expect([...third.state.items.get('s1')!.keys()]).toEqual(['x', 'y']);
  });
});

describe('one hub per state directory', () => {
  it('a second serve with the same SWITCHBOARD_HOME but another runtime directory refuses, naming the first hub', async () => {
    const dirs = tempDirs();
    const first = await serve(cliEnv(dirs));
    const other = cliEnv(dirs, { SWITCHBOARD_RUNTIME_DIR: path.join(dirs.root, 'run2') });
    const r = await refusedServe(other);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${dirs.home} is in use by another hub (pid ${first.ready.pid}, socket ${first.ready.socket})`,
    );
    // The first hub is unharmed.
    const c = await HubClient.connect(first.ready.socket);
    expect((await c.call('hub.info', {})).pid).toBe(first.ready.pid);
    c.close();
    // Once the first is gone (even killed), the lock is stale and the other one starts.
    await first.stop('SIGKILL');
    served.length = 0;
    const second = await serve(other);
    expect(second.ready.socket).toContain('run2');
  });

  it('in one process, a second Hub on the same state directory is refused; after close it starts', async () => {
    const dirs = tempDirs();
    const first = await startHub({
      endpoint: dirs.env,
      managedSettingsPath: `${dirs.root}/m.json`,
      claudeHome: `${dirs.root}/claude`,
    });
    const env2 = { ...dirs.env, env: { ...dirs.env.env, SWITCHBOARD_RUNTIME_DIR: path.join(dirs.root, 'run2') } };
    await expect(
      startHub({ endpoint: env2, managedSettingsPath: `${dirs.root}/m.json`, claudeHome: `${dirs.root}/claude` }),
    ).rejects.toMatchObject({ code: 'state_locked' });
    await first.close();
    const second = await startHub({
      endpoint: env2,
      managedSettingsPath: `${dirs.root}/m.json`,
      claudeHome: `${dirs.root}/claude`,
    });
    await second.close();
  });
});

describe('the state directory', () => {
  it('with a loose mode is refused by an error that calls it the state directory and names it', async () => {
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o755 });
    fs.chmodSync(dirs.home, 0o755);
    const r = await refusedServe(cliEnv(dirs));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Refusing the state directory ${dirs.home}: other users can access it`);
    expect(r.stderr).not.toContain('runtime directory');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { HubClient } from '../../core/client/client.js';
import { Journal } from '../../core/journal/journal.js';
import { tempDirs } from '../helpers/hub.js';
import { cliEnv, serveCli, type Served } from '../helpers/cli.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop('SIGKILL');
  served = undefined;
});

describe('durability', () => {
  it('a SIGKILLed hub loses nothing it answered queued; pid-bound sessions come back by themselves', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    // A burst of 200 from one sender would be rate-limited by the default throttle.
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(dirs.home, 'settings.json'),
      JSON.stringify({ throttle: { bucketSize: 1000, queueFullAt: 1000 } }),
    );
    served = await serveCli(env);
    let c = await HubClient.connect(served.ready.socket);
    const a = await c.call('session.register', { cwd: '/a', name: 'a', pid: process.pid, liveness: 'pid' });
    const b = await c.call('session.register', { cwd: '/b', name: 'b', pid: process.pid, liveness: 'pid' });
    const conn = await c.call('session.register', { cwd: '/c', name: 'c' });
    const sends = [];
    for (let i = 0; i < 200; i++)
      sends.push(
        c.call('message.send', {
          sessionId: a.sessionId,
          token: a.token,
          to: i % 2 ? 'b' : 'c',
          summary: 's',
          message: `m${i}`,
        }),
      );
    const results = await Promise.all(sends);
    expect(results.every((r) => r.status === 'queued')).toBe(true);
    await served.stop('SIGKILL');
    c.close();

    served = await serveCli(env);
    c = await HubClient.connect(served.ready.socket);
    const rows = (await c.call('agents.list', {})).rows.map((r) => r.name).sort();
    expect(rows).toEqual(['a', 'b']);
    const bItems = await c.call('inbox.fetch', { sessionId: b.sessionId, token: b.token, limit: 1000 });
    expect(bItems.items.map((i) => i.id).sort()).toEqual(
      results
        .filter((_, i) => i % 2)
        .map((r) => r.msg_id)
        .sort(),
    );
    await c.call('session.register', { cwd: '/c', resume: { sessionId: conn.sessionId, token: conn.token } });
    const cItems = await c.call('inbox.fetch', { sessionId: conn.sessionId, token: conn.token, limit: 1000 });
    expect(cItems.items).toHaveLength(100);
    c.close();
  });

  it('a torn last line loses only itself: replay skips it and the journal goes on cleanly', async () => {
    const dir = tempDirs().home;
    const opts = { syncMs: 10, compactBytes: 1, lineBytes: 1 << 20 };
    const { journal } = await Journal.open(dir, opts);
    const item = (id: string) => ({ kind: 'notice' as const, id, text: 't', at: 1 });
    await journal.append({ t: 'i', id: 's1', item: item('x') });
    await journal.append({ t: 'i', id: 's1', item: item('y') });
    await journal.append({ t: 'a', id: 's1', ids: ['x'] });
    journal.close();
    fs.appendFileSync(path.join(dir, 'journal.ndjson'), '{"t":"i","id":"s1","item":{"kind":"no');
    const reopened = await Journal.open(dir, opts);
    expect([...reopened.state.items.get('s1')!.keys()], 'replay skips the torn line').toEqual(['y']);
    await reopened.journal.append({ t: 'i', id: 's1', item: item('z') });
    expect(await reopened.journal.compact(), 'compaction runs').toBe(true);
    reopened.journal.close();
    const lines = [
      { t: 'v', v: 1, by: 'switchboard' }, // the format header, written when the file was new
      { t: 'i', id: 's1', item: item('y') },
      { t: 'i', id: 's1', item: item('z') },
    ];
    expect(
      fs.readFileSync(path.join(dir, 'journal.ndjson'), 'utf8'),
      'the next record started a fresh line; compaction kept exactly the live records',
    ).toBe(lines.map((l) => JSON.stringify(l) + '\n').join(''));
    expect(fs.statSync(path.join(dir, 'journal.ndjson')).mode & 0o777).toBe(0o600);
  });
});

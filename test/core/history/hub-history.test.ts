import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { RpcError } from '../../../core/client/client.js';
import { HISTORY_FILE } from '../../../core/history/recorder.js';
import { startHub, tempDirs, until, type TestHub } from '../../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof RpcError) return err.reason;
    throw err;
  }
  return 'no error';
}

describe('history in the hub', () => {
  /** alice → bob "plan" (delivered: bob acknowledged it) and carol → alice "hi". */
  async function twoSends() {
    th = await startHub();
    const c = await th.client();
    const alice = await th.register(c, { name: 'alice' });
    const bob = await th.register(c, { name: 'bob' });
    const carol = await th.register(c, { name: 'carol' });
    const ui = th.hub.uiToken;
    await c.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: 'bob',
      summary: 'plan',
      message: 'the launch codes are 1234',
    });
    await c.call('message.send', {
      sessionId: carol.sessionId,
      token: carol.token,
      to: 'alice',
      summary: 'hi',
      message: 'lunch at noon',
    });
    const items = await c.call('inbox.fetch', { sessionId: bob.sessionId, token: bob.token });
    await c.call('inbox.ack', { sessionId: bob.sessionId, token: bob.token, ids: items.items.map((i) => i.id) });
    return { c, alice, bob, carol, ui };
  }

  it('records each send with its text as delivered and its outcome, for the UI token', async () => {
    const { c, alice, bob, ui } = await twoSends();
    const all = await c.call('history.search', { uiToken: ui });
    expect(all.messages.map((m) => m.summary)).toEqual(['hi', 'plan']);
    const plan = all.messages[1]!;
    expect(plan).toMatchObject({
      outcome: 'delivered',
      sender: { sessionId: alice.sessionId, name: 'alice' },
      receiver: { sessionId: bob.sessionId, name: 'bob' },
    });
    expect(plan.text).toContain('the launch codes are 1234');
    expect(plan.text).toContain('<cross-session-message'); // the framed text as delivered
    expect(plan.trail.map((e) => `${e.kind}:${e.status}`)).toEqual(['decision:deliver', 'receipt:delivered']);
  });

  it('a session reads only its own messages, whatever it asks for', async () => {
    const { c, alice, carol, ui } = await twoSends();
    // Carol's token: her own messages only, whatever she asks for.
    const mine = await c.call('history.search', { sessionId: carol.sessionId, token: carol.token });
    expect(mine.messages.map((m) => m.summary)).toEqual(['hi']);
    expect(
      (await c.call('history.search', { sessionId: carol.sessionId, token: carol.token, text: 'launch codes' }))
        .messages,
    ).toEqual([]);
    expect(
      (await c.call('history.search', { sessionId: carol.sessionId, token: carol.token, with: 'bob' })).messages,
    ).toEqual([]);
    expect(
      (await c.call('history.conversation', { sessionId: carol.sessionId, token: carol.token, with: 'bob' })).messages,
    ).toEqual([]);
    expect(
      await reason(
        c.call('history.search', { sessionId: carol.sessionId, token: carol.token, session: alice.sessionId }),
      ),
    ).toBe('unauthorized');
    expect(
      await reason(
        c.call('history.conversation', { sessionId: carol.sessionId, token: carol.token, between: ['alice', 'bob'] }),
      ),
    ).toBe('unauthorized');
    expect(await reason(c.call('history.search', { sessionId: carol.sessionId, token: alice.token }))).toBe(
      'unauthorized',
    );
    expect(await reason(c.call('history.search', {}))).toBe('unauthorized');
    expect(await reason(c.call('history.search', { uiToken: 'x'.repeat(48) }))).toBe('unauthorized');
    // Alice sees both of hers; the UI sees the pair's conversation.
    expect(
      (await c.call('history.search', { sessionId: alice.sessionId, token: alice.token, text: 'launch' })).messages,
    ).toHaveLength(1);
    const conv = await c.call('history.conversation', { uiToken: ui, between: [alice.sessionId, 'bob'] });
    expect(conv.messages.map((m) => m.summary)).toEqual(['plan']);
  });

  it('deleting history and reading its status need the UI token', async () => {
    const { c, alice, ui } = await twoSends();
    await c.call('history.search', { uiToken: ui }); // a search writes what is queued: the status counts written records
    expect(
      await reason(c.call('history.delete', { sessionId: alice.sessionId, token: alice.token, all: true } as never)),
    ).toBe('invalid_params');
    expect(await reason(c.call('history.delete', { uiToken: 'nope', all: true }))).toBe('unauthorized');
    expect(await reason(c.call('history.status', { uiToken: 'nope' }))).toBe('unauthorized');
    expect(await c.call('history.status', { uiToken: ui })).toMatchObject({
      enabled: true,
      messages: 2,
      gap: { records: 0 },
      retention: { days: 30, maxMegabytes: 512 },
    });
    expect(await c.call('history.delete', { uiToken: ui, between: ['carol', 'alice'] })).toEqual({ deleted: 1 });
    expect((await c.call('history.search', { uiToken: ui })).messages.map((m) => m.summary)).toEqual(['plan']);
  });

  it('keeps held messages with their end: approved, denied', async () => {
    th = await startHub();
    const c = await th.client();
    const alice = await th.register(c, { name: 'alice' });
    await th.register(c, { name: 'bob' });
    const ui = th.hub.uiToken;
    await c.call('settings.set', { uiToken: ui, key: 'crossSessionInbound', value: 'hold' });
    const one = await c.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: 'bob',
      summary: 'one',
      message: 'first held',
    });
    const two = await c.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: 'bob',
      summary: 'two',
      message: 'second held',
    });
    expect([one.status, two.status]).toEqual(['held', 'held']);
    await c.call('held.approve', { uiToken: ui, id: one.msg_id });
    await c.call('held.deny', { uiToken: ui, id: two.msg_id });
    const conv = await c.call('history.conversation', { sessionId: alice.sessionId, token: alice.token, with: 'bob' });
    expect(conv.messages.map((m) => [m.summary, m.outcome])).toEqual([
      ['one', 'approved'],
      ['two', 'denied'],
    ]);
    expect(conv.messages[0]!.text).toContain('after-hold');
    expect(conv.messages[1]!.trail.map((e) => e.status)).toEqual(['hold', 'held', 'denied']);
    expect(
      (await c.call('history.search', { uiToken: ui, outcome: ['denied'] })).messages.map((m) => m.summary),
    ).toEqual(['two']);
  });

  it('keeps the store 0600 inside the 0700 state directory', async () => {
    th = await startHub();
    const c = await th.client();
    const a = await th.register(c, { name: 'a' });
    await th.register(c, { name: 'b' });
    await c.call('message.send', { sessionId: a.sessionId, token: a.token, to: 'b', summary: 's', message: 'm' });
    await until(() => th!.hub.history.status().written > 0);
    const stateDir = th.hub.paths.stateDir;
    expect(fs.statSync(stateDir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(stateDir).filter((f) => f.startsWith(HISTORY_FILE));
    expect(files).toEqual(expect.arrayContaining([HISTORY_FILE, `${HISTORY_FILE}-wal`]));
    for (const f of files) expect(fs.statSync(path.join(stateDir, f)).mode & 0o777, f).toBe(0o600);
  });

  it('a hub with history off answers history_off and still delivers', async () => {
    th = await startHub({ history: false });
    const c = await th.client();
    const a = await th.register(c, { name: 'a' });
    await th.register(c, { name: 'b' });
    expect(
      (await c.call('message.send', { sessionId: a.sessionId, token: a.token, to: 'b', summary: 's', message: 'm' }))
        .status,
    ).toBe('queued');
    expect(await reason(c.call('history.search', { sessionId: a.sessionId, token: a.token }))).toBe('history_off');
    expect(await c.call('history.status', { uiToken: th.hub.uiToken })).toMatchObject({
      enabled: false,
      reason: 'turned off for this hub',
    });
  });

  it('applies the retention settings (user scope) with the hub clock: a 31-day-old message goes', async () => {
    let now = Date.UTC(2026, 0, 1);
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(dirs.home, 'settings.json'),
      JSON.stringify({ historyRetentionDays: 30, historyMaxMegabytes: 64 }),
    );
    th = await startHub({ clock: { now: () => now, monotonic: () => performance.now() } }, dirs);
    const c = await th.client();
    const a = await th.register(c, { name: 'a' });
    await th.register(c, { name: 'b' });
    const ui = th.hub.uiToken;
    expect((await c.call('history.status', { uiToken: ui })).retention).toEqual({ days: 30, maxMegabytes: 64 });
    await c.call('message.send', {
      sessionId: a.sessionId,
      token: a.token,
      to: 'b',
      summary: 'old',
      message: 'from january',
    });
    expect((await c.call('history.search', { uiToken: ui })).messages).toHaveLength(1);
    now += 31 * 86_400_000;
    await c.call('message.send', {
      sessionId: a.sessionId,
      token: a.token,
      to: 'b',
      summary: 'new',
      message: 'from february',
    });
    await until(async () => (await c.call('history.search', { uiToken: ui })).messages.length === 1);
    expect((await c.call('history.search', { uiToken: ui })).messages.map((m) => m.summary)).toEqual(['new']);
    // The UI may change them (user scope).
    await c.call('settings.set', { uiToken: ui, key: 'historyRetentionDays', value: 7 });
    expect((await c.call('history.status', { uiToken: ui })).retention.days).toBe(7);
  });

  it('another connection locking the file postpones history writes; sends go on, nothing is lost', async () => {
    th = await startHub();
    const c = await th.client();
    const a = await th.register(c, { name: 'a' });
    await th.register(c, { name: 'b' });
    const ui = th.hub.uiToken;
    const other = new DatabaseSync(th.hub.history.file);
    other.exec('BEGIN IMMEDIATE'); // holds the write lock
    try {
      for (let i = 0; i < 5; i++) {
        expect(
          (
            await c.call('message.send', {
              sessionId: a.sessionId,
              token: a.token,
              to: 'b',
              summary: `s${i}`,
              message: `locked ${i}`,
            })
          ).status,
        ).toBe('queued');
      }
      await until(
        async () => (await c.call('history.status', { uiToken: ui })).lastError?.includes('postponed') === true,
      );
      expect((await c.call('history.status', { uiToken: ui })).queued).toBeGreaterThan(0);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const found = await c.call('history.search', { uiToken: ui, text: 'locked' });
    expect(found.messages.map((m) => m.summary)).toEqual(['s4', 's3', 's2', 's1', 's0']);
    expect((await c.call('history.status', { uiToken: ui })).gap.records).toBe(0);
  });
});

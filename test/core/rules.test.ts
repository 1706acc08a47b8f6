// Rules with lifetimes (core/policy/rules.ts) through the hub: allow turns a
// mode-parity hold into a delivery the sender hears was approved by the
// rule; block refuses and beats allow; a new rule decides the held messages
// it covers at once; hour rules end with their hour, session rules with
// either session; "always" rules survive a restart and are keyed by agent
// and project directory, so a session that only takes the name is not
// covered; a repository that holds still holds; only the UI token makes
// rules; an unreadable rules file is never overwritten.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { Registration } from '../../core/protocol/methods.js';
import { HOUR_MS } from '../../core/policy/rules.js';
import { fakeClock, startHub, tempDirs, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

async function world(t: TestHub): Promise<{ c: HubClient; web: Registration; api: Registration; ui: string }> {
  const c = await t.client();
  const web = await t.register(c, { name: 'web', cwd: '/work/web', agent: 'claude' });
  const api = await t.register(c, {
    name: 'api',
    cwd: '/work/api',
    agent: 'codex',
    permissionMode: 'bypassPermissions',
  });
  return { c, web, api, ui: t.hub.uiToken };
}

const send = (c: HubClient, from: Registration, text: string, to = 'api') =>
  c.call('message.send', { ...auth(from), to, summary: text, message: text });

describe('rules with lifetimes', () => {
  it('a rule made from a held card decides it and the others it covers, then delivers the next at once', async () => {
    th = await startHub();
    const { c, web, api, ui } = await world(th);
    expect((await send(c, web, 'one')).status).toBe('held');
    expect((await send(c, web, 'two')).status).toBe('held');
    const [first] = (await c.call('held.list', { uiToken: ui })).items;
    const made = await c.call('rules.add', { uiToken: ui, heldId: first!.id, effect: 'allow', lifetime: 'hour' });
    expect(made.rule.label).toBe('web → api, 1 h');
    expect(made.decided).toHaveLength(2);
    expect((await c.call('held.list', { uiToken: ui })).items).toEqual([]);
    const next = await send(c, web, 'three');
    expect(next).toMatchObject({ status: 'queued', reason: 'approved by rule "web → api, 1 h"' });
    const receipts = (await c.call('inbox.fetch', auth(web))).items.filter((i) => i.kind === 'receipt');
    expect(receipts.filter((r) => r.status === 'approved').map((r) => r.reason)).toEqual([
      'approved by rule "web → api, 1 h"',
      'approved by rule "web → api, 1 h"',
      'approved by rule "web → api, 1 h"',
    ]);
    const inbox = (await c.call('inbox.fetch', auth(api))).items.map((i) => i.text);
    expect(inbox).toHaveLength(3);
    expect((await c.call('rules.list', { uiToken: ui })).rules[0]).toMatchObject({ decided: 3, madeWith: 'web UI' });
  });

  /** web → api: allowed always, and blocked for an hour. */
  async function allowedAndBlocked() {
    const clock = fakeClock();
    th = await startHub({ clock });
    const w = await world(th);
    await w.c.call('rules.add', { uiToken: w.ui, from: 'web', to: 'api', effect: 'allow', lifetime: 'always' });
    const block = await w.c.call('rules.add', {
      uiToken: w.ui,
      from: 'web',
      to: 'api',
      effect: 'block',
      lifetime: 'hour',
    });
    return { clock, block, ...w };
  }

  it('a block rule refuses, and wins over an allow rule', async () => {
    const { c, web } = await allowedAndBlocked();
    expect(await send(c, web, 'x')).toMatchObject({ status: 'refused', reason: 'blocked by rule "web → api, 1 h"' });
  });

  it('an hour rule ends with its hour', async () => {
    const { clock, block, c, web, ui } = await allowedAndBlocked();
    clock.advance(HOUR_MS + 1);
    expect((await c.call('rules.list', { uiToken: ui })).rules.map((r) => r.id)).not.toContain(block.rule.id);
    expect((await send(c, web, 'y')).status).toBe('queued'); // the always-allow is left
  });

  it('a rule for two sessions ends when either of them ends', async () => {
    const { clock, c, ui } = await allowedAndBlocked();
    clock.advance(HOUR_MS + 1); // the hour block is over: the always-allow is the only other rule
    const t = th!;
    const other = await t.register(c, { name: 'docs', cwd: '/work/docs' });
    const yolo = await t.register(c, { name: 'yolo', permissionMode: 'bypassPermissions' });
    await c.call('rules.add', { uiToken: ui, from: 'docs', to: 'yolo', effect: 'allow', lifetime: 'sessions' });
    expect((await send(c, other, 'z', 'yolo')).status, 'it allows while both live').toBe('queued');
    await c.call('session.unregister', auth(yolo));
    expect(
      (await c.call('rules.list', { uiToken: ui })).rules.map((r) => r.label),
      'gone with yolo',
    ).toEqual(['web → api, always']);
  });

  it('an "always" rule outlives a restart and never covers a session by its name alone', async () => {
    const dirs = tempDirs();
    th = await startHub({}, dirs);
    const w = await world(th);
    await w.c.call('rules.add', { uiToken: w.ui, from: 'web', to: 'api', effect: 'allow', lifetime: 'always' });
    await th.close();
    th = await startHub({}, dirs);
    const c = await th.client();
    expect(
      (await c.call('rules.list', { uiToken: th.hub.uiToken })).rules.map((r) => r.label),
      'listed after the restart',
    ).toEqual(['web → api, always']);
    await th.register(c, { name: 'api', cwd: '/work/api', agent: 'codex', permissionMode: 'bypassPermissions' });
    const impostor = await th.register(c, { name: 'web', cwd: '/elsewhere', agent: 'claude' });
    expect((await send(c, impostor, 'pretending')).status, 'the name alone is not covered').toBe('held');
    const web2 = await th.register(c, { name: 'web2', cwd: '/work/web', agent: 'claude' });
    expect((await send(c, web2, 'same project, same agent')).status, 'same agent and project').toBe('queued');
  });

  it('only the UI token makes rules: a session cannot', async () => {
    th = await startHub();
    const { c, web } = await world(th);
    const err = await c
      .call('rules.add', { uiToken: web.token, from: 'web', to: 'api', effect: 'allow', lifetime: 'always' })
      .catch((e: unknown) => e);
    expect((err as { reason: string }).reason).toBe('unauthorized');
  });

  it("a rule does not loosen a repository's settings that hold", async () => {
    th = await startHub();
    const { c, web, ui } = await world(th);
    // A repository settings file of the receiver's project that holds: the rule does not loosen it.
    const repo = path.join(th.dirs.root, 'repo');
    fs.mkdirSync(path.join(repo, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.claude', 'settings.json'), JSON.stringify({ crossSessionInbound: 'hold' }));
    await th.register(c, { name: 'strict', cwd: repo, permissionMode: 'bypassPermissions' });
    await c.call('rules.add', { uiToken: ui, from: 'web', to: 'strict', effect: 'allow', lifetime: 'hour' });
    expect((await send(c, web, 'held by the repo', 'strict')).status).toBe('held');
  });

  it('an unreadable rules file is left as it is; "always" rules are refused with the reason', async () => {
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    const file = path.join(dirs.home, 'rules.json');
    fs.writeFileSync(file, '{ not json');
    th = await startHub({}, dirs);
    const { c, ui } = await world(th);
    const err = await c
      .call('rules.add', { uiToken: ui, from: 'web', to: 'api', effect: 'allow', lifetime: 'always' })
      .catch((e: unknown) => e);
    expect(JSON.stringify(err)).toContain('is not a rules file Switchboard can read');
    expect((await c.call('rules.list', { uiToken: ui })).problem).toContain(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ not json');
    expect(
      (await c.call('rules.add', { uiToken: ui, from: 'web', to: 'api', effect: 'allow', lifetime: 'hour' })).rule,
    ).toBeDefined();
  });
});

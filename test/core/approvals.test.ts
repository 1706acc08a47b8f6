// The hub side of the approval surface: several held messages decided as one
// request (each answered, one already decided is `gone`, never an error that
// leaves the rest), what a held card needs about its sender, the pause
// (senders told "paused by its user", a count for the banner), and every
// change to the idle subscriptions reaching the views as an event.
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { HubEvent } from '../../core/protocol/events.js';
import type { Registration } from '../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

/** A prompting sender, a bypass receiver: each send is held (mode parity). */
async function holding(t: TestHub): Promise<{ c: HubClient; web: Registration; api: Registration; ui: string }> {
  const c = await t.client();
  const web = await t.register(c, { name: 'web', cwd: '/home/dev/web', agent: 'claude' });
  const api = await t.register(c, { name: 'api', permissionMode: 'bypassPermissions' });
  return { c, web, api, ui: t.hub.uiToken };
}

describe('held messages decided together', () => {
  it('a batch approval decides every message still held, reporting one decided meanwhile as gone', async () => {
    th = await startHub();
    const { c, web, ui } = await holding(th);
    for (const m of ['one', 'two', 'three'])
      expect((await c.call('message.send', { ...auth(web), to: 'api', summary: m, message: m })).status).toBe('held');
    const ids = (await c.call('held.list', { uiToken: ui })).items.map((h) => h.id);
    await c.call('held.deny', { uiToken: ui, id: ids[1]! }); // decided elsewhere (the tray) first
    const r = await c.call('held.decide', { uiToken: ui, ids, approve: true });
    expect(r.results).toEqual([
      { id: ids[0], status: 'queued' },
      { id: ids[1], status: 'gone' },
      { id: ids[2], status: 'queued' },
    ]);
    expect((await c.call('held.list', { uiToken: ui })).items).toEqual([]);
  });

  it('refuses a session token: only the person decides', async () => {
    th = await startHub();
    const { c, web } = await holding(th);
    await c.call('message.send', { ...auth(web), to: 'api', summary: 's', message: 'x' });
    const err = await c.call('held.decide', { uiToken: web.token, ids: ['x'], approve: true }).catch((e: unknown) => e);
    expect((err as { reason: string }).reason).toBe('unauthorized');
  });

  it('a held card says who its sender is and where it runs', async () => {
    th = await startHub();
    const { c, web, ui } = await holding(th);
    await c.call('message.send', { ...auth(web), to: 'api', summary: 's', message: 'x' });
    const [h] = (await c.call('held.list', { uiToken: ui })).items;
    expect(h!.sender).toMatchObject({
      name: 'web',
      agent: 'claude',
      mode: 'default',
      cwd: '/home/dev/web',
      machine: null,
    });
  });
});

describe('pause inbound', () => {
  it('tells senders "paused by its user" and counts the refusals since the pause began', async () => {
    th = await startHub();
    const { c, web, ui } = await holding(th);
    await c.call('inbound.pause', { uiToken: ui, paused: true });
    const r = await c.call('message.send', { ...auth(web), to: 'api', summary: 's', message: 'x' });
    expect(r).toMatchObject({ status: 'refused', reason: 'paused by its user' });
    expect(r.note).toContain('Refused: api [');
    expect(r.note).toContain('inbound messages are paused by its user');
    expect(r.note).not.toContain('inbound policy');
    await c.call('message.send', { ...auth(web), to: 'api', summary: 's', message: 'y' });
    expect(await c.call('settings.effective', { uiToken: ui })).toMatchObject({ paused: true, pausedRefused: 2 });
    await c.call('inbound.pause', { uiToken: ui, paused: false });
    await c.call('inbound.pause', { uiToken: ui, paused: true });
    expect(await c.call('settings.effective', { uiToken: ui })).toMatchObject({ pausedRefused: 0 });
  });
});

describe('idle subscriptions reach the views', () => {
  it('every change to the idle subscriptions tells the UI: made, fired or cancelled', async () => {
    th = await startHub();
    const events: HubEvent[] = [];
    th.hub.events.on((e) => events.push(e));
    const changes = (): number => events.filter((e) => e.type === 'subscriptions.changed').length;
    const c = await th.client();
    const a = await th.register(c, { name: 'watcher' });
    const b = await th.register(c, { name: 'builder' });
    await c.call('session.state', { ...auth(b), state: 'busy' });
    await c.call('message.send', { ...auth(a), to: 'builder', notify_when_idle: true });
    expect(changes(), 'made by a session').toBe(1);
    await c.call('session.state', { ...auth(b), state: 'idle' });
    await until(() => changes() === 2); // fired: it leaves the list
    expect((await c.call('subscriptions.list', { uiToken: th.hub.uiToken })).items, 'fired: gone').toEqual([]);
    await c.call('session.state', { ...auth(b), state: 'busy' });
    await c.call('message.send', { ...auth(a), to: 'builder', notify_when_idle: true });
    const [sub] = (await c.call('subscriptions.list', { uiToken: th.hub.uiToken })).items;
    await c.call('subscriptions.cancel', { uiToken: th.hub.uiToken, id: sub!.id });
    expect(changes(), 'made again, then cancelled').toBe(4);
  });
});

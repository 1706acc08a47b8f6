// The headless web bridge on a real loopback port: token, Host (DNS
// rebinding) and Origin (cross-site) checks, headers, operations, events,
// static files with path containment.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CSP, startWebServer, type WebServer } from '../../core/host/web.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
let web: WebServer | undefined;
afterEach(async () => {
  await web?.close();
  await th?.close();
  web = undefined;
  th = undefined;
});

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: { Host: `127.0.0.1:${port}`, ...opts.headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function setup(rendererDir = '/nonexistent'): Promise<{ port: number; token: string; cookie: string; origin: string }> {
  th = await startHub();
  web = await startWebServer(th.hub, { port: 0, rendererDir });
  const token = th.hub.uiToken;
  const r = await request(web.port, { path: `/?token=${token}` });
  expect(r.status).toBe(303);
  const cookie = (r.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
  return { port: web.port, token, cookie, origin: `http://127.0.0.1:${web.port}` };
}

describe('web bridge security', () => {
  it('trades the printed token for an HttpOnly SameSite=Strict cookie; nothing works without it', async () => {
    th = await startHub();
    web = await startWebServer(th.hub, { port: 0, rendererDir: '/nonexistent' });
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${th.hub.uiToken}`);
    const first = await request(web.port, { path: `/?token=${th.hub.uiToken}` });
    expect(first.headers['set-cookie']![0]).toMatch(/^sb_ui=[0-9a-f]{48}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(first.headers.location).toBe('/');
    expect((await request(web.port, { path: '/?token=wrong' })).status).toBe(401);
    expect((await request(web.port, { method: 'POST', path: '/api/held.list', headers: { Origin: `http://127.0.0.1:${web.port}`, 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await request(web.port, { path: '/api/events', headers: { Cookie: 'sb_ui=nope' } })).status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding) and cross-site requests even with the token', async () => {
    const { port, cookie, origin } = await setup();
    const post = (headers: Record<string, string>) => request(port, { method: 'POST', path: '/api/held.list', headers: { Cookie: cookie, 'Content-Type': 'application/json', ...headers }, body: '{}' });
    expect((await post({ Origin: origin })).status).toBe(200);
    expect((await post({ Origin: origin, Host: `evil.example:${port}` })).status).toBe(421);
    expect((await post({ Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ Origin: origin, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await post({})).status).toBe(403);
    expect((await post({ Origin: `http://localhost:${port}`, Host: `localhost:${port}` })).status).toBe(200);
  });

  it('sends a strict CSP and no-store on every answer', async () => {
    const { port, cookie } = await setup();
    for (const r of [await request(port, { path: '/' }), await request(port, { path: '/', headers: { Cookie: cookie } })]) {
      expect(r.headers['content-security-policy']).toBe(CSP);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('web bridge operations and events', () => {
  it('lists and approves held messages; refuses session credentials, unknown operations, bad and oversized bodies', async () => {
    const { port, cookie, origin } = await setup();
    const call = (op: string, body: string) => request(port, { method: 'POST', path: `/api/${op}`, headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/json' }, body });
    const c = await th!.client();
    const a = await th!.register(c, { name: 'careful' });
    const b = await th!.register(await th!.client(), { name: 'yolo', permissionMode: 'bypassPermissions' });
    const sent = await c.call('message.send', { sessionId: a.sessionId, token: a.token, to: 'yolo', summary: 's', message: 'please' });
    expect(sent.status).toBe('held');
    const list = JSON.parse((await call('held.list', '{}')).body) as { result: { items: Array<{ id: string; preview: string }> } };
    expect(list.result.items.map((h) => [h.id, h.preview])).toEqual([[sent.msg_id, 'please']]);
    expect(JSON.parse((await call('held.approve', JSON.stringify({ id: sent.msg_id }))).body)).toEqual({ result: { status: 'queued' } });
    expect((await c.call('inbox.fetch', { sessionId: b.sessionId, token: b.token })).items.map((i) => i.id)).toEqual([sent.msg_id]);
    const sessions = JSON.parse((await call('sessions.list', '{}')).body) as { result: { rows: Array<{ name: string }> } };
    expect(sessions.result.rows.map((r) => r.name).sort()).toEqual(['careful', 'yolo']);

    expect((await call('held.list', JSON.stringify({ sessionId: a.sessionId, token: a.token }))).status).toBe(400);
    expect((await call('message.send', '{}')).status).toBe(404);
    expect((await call('held.list', '{nope')).status).toBe(400);
    expect((await call('held.approve', JSON.stringify({ id: 'missing' }))).status).toBe(422);
    expect((await call('held.list', JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }))).status).toBe(413);
    expect((await request(port, { path: '/api/held.list', headers: { Cookie: cookie } })).status).toBe(405);
  });

  it('streams hub events as Server-Sent Events and starts held countdowns', async () => {
    const { port, cookie } = await setup();
    const got: string[] = [];
    const req = http.request({ host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}`, Cookie: cookie } }, (res) => {
      expect(res.headers['content-type']).toBe('text/event-stream');
      res.on('data', (d: Buffer) => got.push(d.toString()));
    });
    req.end();
    await until(() => got.join('').includes('event: ready'));
    const c = await th!.client();
    const a = await th!.register(c, { name: 'careful' });
    await th!.register(await th!.client(), { name: 'yolo', permissionMode: 'bypassPermissions' });
    await c.call('message.send', { sessionId: a.sessionId, token: a.token, to: 'yolo', summary: 's', message: 'x' });
    await until(() => got.join('').includes('"type":"held.changed","count":1'));
    const held = await c.call('held.list', { uiToken: th!.hub.uiToken });
    expect(held.items[0]!.expiresAt).not.toBeNull();
    req.destroy();
  });

  it('serves the built renderer with path containment, and says so when it is not built', async () => {
    const dir = path.join((await import('../helpers/hub.js')).tempDirs().root, 'renderer');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>sb</title>');
    fs.writeFileSync(path.join(path.dirname(dir), 'secret.txt'), 'secret');
    const { port, cookie } = await setup(dir);
    const index = await request(port, { path: '/', headers: { Cookie: cookie } });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await request(port, { path: '/../secret.txt', headers: { Cookie: cookie } })).body).not.toContain('secret');
    expect((await request(port, { path: '/%2e%2e/secret.txt', headers: { Cookie: cookie } })).status).toBe(404);
    await web!.close();
    web = await startWebServer(th!.hub, { port: 0, rendererDir: '/nonexistent' });
    expect((await request(web.port, { path: '/', headers: { Authorization: `Bearer ${th!.hub.uiToken}` } })).status).toBe(503);
  });
});

describe('settings from a user interface', () => {
  it('writes one user-scope key, validates it, and never overwrites a broken file', async () => {
    const { port, cookie, origin } = await setup();
    const call = (body: unknown) => request(port, { method: 'POST', path: '/api/settings.set', headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const file = path.join(th!.dirs.home, 'settings.json');
    fs.writeFileSync(file, JSON.stringify({ theme: 'kept' }));
    const ok = JSON.parse((await call({ key: 'dialogExpiry', value: '10m' })).body) as { result: { effective: { dialogExpiry: unknown } } };
    expect(ok.result.effective.dialogExpiry).toEqual({ value: '10m', source: 'user' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ theme: 'kept', dialogExpiry: '10m' });
    expect((await call({ key: 'dialogExpiry', value: '3h' })).status).toBe(400);
    expect((await call({ key: 'claudeConfigDir', value: '/tmp' })).status).toBe(400);
    await call({ key: 'dialogExpiry', value: null });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ theme: 'kept' });
    fs.writeFileSync(file, '{ broken');
    expect((await call({ key: 'dialogExpiry', value: '5m' })).status).toBe(400);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ broken');
  });
});

// The headless web bridge on a real loopback port: token, Host (DNS
// rebinding) and Origin (cross-site) checks, headers, operations, events,
// static files with path containment.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CSP } from '../../core/contract/csp.js';
import { startWebServer, type WebServer, type WebServerOptions } from '../../core/host/ui/web.js';
import { fakeClock, startHub, until, type TestHub } from '../helpers/hub.js';

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

function request(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: { Host: `127.0.0.1:${port}`, ...opts.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function setup(
  rendererDir = '/nonexistent',
  opts: Omit<WebServerOptions, 'port' | 'rendererDir'> = {},
  hubOpts: Parameters<typeof startHub>[0] = {},
): Promise<{ port: number; token: string; auth: string; origin: string }> {
  th = await startHub(hubOpts);
  web = await startWebServer(th.hub, { port: 0, rendererDir, ...opts });
  const token = th.hub.uiToken;
  return { port: web.port, token, auth: `Bearer ${token}`, origin: `http://127.0.0.1:${web.port}` };
}

const reasonOf = (r: Res): unknown =>
  (JSON.parse(r.body) as { error?: { data?: { reason?: string } } }).error?.data?.reason;

/** Opens an event stream; resolves with its status and, for a 200, what it sent until 'ready'. */
function openEvents(
  port: number,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: target, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
          if (res.statusCode === 200 && text.includes('event: ready'))
            resolve({ status: 200, text, close: () => req.destroy() });
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, close: () => undefined }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('web bridge security', () => {
  describe('the UI token', () => {
    /** The bridge and a POST of held.list with the given headers. */
    async function bridge() {
      const b = await setup();
      const post = (headers: Record<string, string>) =>
        request(b.port, {
          method: 'POST',
          path: '/api/held.list',
          headers: { Origin: b.origin, 'Content-Type': 'application/json', ...headers },
          body: '{}',
        });
      return { ...b, post };
    }

    it('the printed URL keeps it in the fragment, which no request carries', async () => {
      const { port, token } = await bridge();
      expect(web!.url).toBe(`http://127.0.0.1:${port}/#token=${token}`);
    });

    it('is taken only as a Bearer header', async () => {
      const { port, token, auth, post } = await bridge();
      expect((await post({ Authorization: auth })).status).toBe(200);
      for (const headers of [
        {},
        { Authorization: 'Bearer wrong' },
        { Authorization: `Basic ${token}` },
        { Cookie: `sb_ui=${token}` },
        { Cookie: `sb_ui_${port}=${token}` },
      ] as Array<Record<string, string>>) {
        const r = await post(headers);
        expect(r.status, JSON.stringify(headers)).toBe(401);
        expect(reasonOf(r)).toBe('unauthorized');
      }
    });

    it('in a query string is refused', async () => {
      const { port, token } = await bridge();
      const old = await request(port, { path: `/?token=${token}` });
      expect([old.status, reasonOf(old)]).toEqual([400, 'token_in_query']);
    });

    it('never becomes a cookie: no answer sets one', async () => {
      const { port, token, auth, post } = await bridge();
      const old = await request(port, { path: `/?token=${token}` });
      for (const r of [old, await request(port, { path: '/' }), await post({ Authorization: auth })])
        expect(r.headers['set-cookie']).toBeUndefined();
    });

    it('an event stream without it is refused', async () => {
      const { port } = await bridge();
      expect((await openEvents(port, '/api/events')).status).toBe(401);
    });
  });

  describe('event streams', () => {
    /** A bridge whose tickets last 300 ms, at most 2 kept, and a way to ask for one. */
    async function withTickets() {
      const clock = fakeClock();
      const { port, auth } = await setup('/nonexistent', { limits: { ticketMs: 300, tickets: 2 } }, { clock });
      const ticket = async (headers: Record<string, string> = { Authorization: auth }) => {
        const r = await request(port, {
          method: 'POST',
          path: '/api/events/ticket',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: '{}',
        });
        return { status: r.status, ticket: (JSON.parse(r.body) as { result?: { ticket: string } }).result?.ticket };
      };
      return { clock, port, auth, ticket };
    }

    it('a ticket is issued only for a POST with the token and no foreign Origin', async () => {
      const { port, auth, ticket } = await withTickets();
      expect((await ticket({})).status, 'no token').toBe(401);
      expect((await ticket({ Authorization: auth, Origin: 'http://127.0.0.1:1' })).status, 'an Origin').toBe(403);
      expect(
        (await request(port, { path: '/api/events/ticket', headers: { Authorization: auth } })).status,
        'a GET',
      ).toBe(405);
    });

    it('a stream opens with the token in its Authorization header', async () => {
      const { port, auth } = await withTickets();
      const byHeader = await openEvents(port, '/api/events', { Authorization: auth });
      expect(byHeader.status).toBe(200);
      byHeader.close();
    });

    it('a ticket opens one stream, once', async () => {
      const { port, ticket } = await withTickets();
      const t = (await ticket()).ticket!;
      expect(t).toMatch(/^[0-9a-f]{48}$/);
      const first = await openEvents(port, `/api/events?ticket=${t}`);
      expect(first.text).toContain('event: ready');
      first.close();
      const again = await openEvents(port, `/api/events?ticket=${t}`);
      expect([again.status, reasonOf({ ...again, headers: {}, body: again.text })]).toEqual([401, 'bad_ticket']);
    });

    it("a ticket expires after ticketMs on the hub's clock", async () => {
      const { clock, port, ticket } = await withTickets();
      const stale = (await ticket()).ticket!;
      clock.advance(400); // past ticketMs on the hub's clock
      expect((await openEvents(port, `/api/events?ticket=${stale}`)).status).toBe(401);
    });

    it('only the newest tickets are kept, up to the limit', async () => {
      const { port, ticket } = await withTickets();
      const [a, b, c] = [(await ticket()).ticket!, (await ticket()).ticket!, (await ticket()).ticket!];
      expect((await openEvents(port, `/api/events?ticket=${a}`)).status).toBe(401); // dropped: only 2 are kept
      for (const kept of [b, c]) {
        const s = await openEvents(port, `/api/events?ticket=${kept}`);
        expect(s.status).toBe(200);
        s.close();
      }
    });

    it('a ticket that is not one the hub issued is refused', async () => {
      const { port } = await withTickets();
      expect((await openEvents(port, '/api/events?ticket=nothex')).status).toBe(401);
    });
  });

  it('refuses a foreign Host (DNS rebinding) and cross-site requests even with the token', async () => {
    const { port, auth, origin } = await setup();
    const post = (headers: Record<string, string>) =>
      request(port, {
        method: 'POST',
        path: '/api/held.list',
        headers: { Authorization: auth, 'Content-Type': 'application/json', ...headers },
        body: '{}',
      });
    expect((await post({ Origin: origin })).status).toBe(200);
    expect((await post({ Origin: origin, Host: `evil.example:${port}` })).status).toBe(421);
    expect((await post({ Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ Origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await post({ Origin: origin, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await post({})).status).toBe(200); // a script with the token and no Origin
    expect((await post({ Origin: `http://localhost:${port}`, Host: `localhost:${port}` })).status).toBe(200);
    expect((await request(port, { path: '/', headers: { Host: `evil.example:${port}` } })).status).toBe(421);
  });

  it('sends a strict CSP and no-store on every answer', async () => {
    const { port, auth } = await setup();
    for (const r of [
      await request(port, { path: '/' }),
      await request(port, { path: '/', headers: { Authorization: auth } }),
      await request(port, { path: '/%zz' }),
    ]) {
      expect(r.headers['content-security-policy']).toBe(CSP);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  // Synchronously or after an await: 500, its stack logged.
  it('a handler that throws fails only its own request', async () => {
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (m: string, f?: Record<string, unknown>) => void lines.push([m, f]),
    };
    const { port, auth } = await setup('/nonexistent', { logger });
    const hub = th!.hub as unknown as { dispatch: unknown; connections: { attachUi: unknown } };
    const { dispatch } = hub;
    const { attachUi } = hub.connections;
    hub.dispatch = async () => ({ notJson: 1n }); // JSON.stringify throws after the operation's await
    hub.connections.attachUi = () => {
      throw new Error('attach failed');
    };
    const op = await request(port, {
      method: 'POST',
      path: '/api/sessions.list',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect([op.status, reasonOf(op)], 'an operation that throws after its await').toEqual([500, 'internal']);
    expect(op.body, 'the answer keeps the error to the log').not.toContain('BigInt');
    const ev = await openEvents(port, '/api/events', { Authorization: auth });
    expect(ev.status, 'an event stream whose attach throws').toBe(500);
    expect(lines.map(([m, f]) => [m, String(f?.stack).split('\n')[0]])).toEqual([
      ['web UI request failed', 'TypeError: Do not know how to serialize a BigInt'],
      ['web UI request failed', 'Error: attach failed'],
    ]);
    hub.dispatch = dispatch;
    hub.connections.attachUi = attachUi;
    expect(
      (
        await request(port, {
          method: 'POST',
          path: '/api/sessions.list',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status,
      'the server still serves',
    ).toBe(200);
  });
});

describe('web bridge operations and events', () => {
  /** The bridge, a `call` of its operations, and a message from careful held for yolo. */
  async function withHeld() {
    const { port, auth, origin } = await setup();
    const call = (op: string, body: string) =>
      request(port, {
        method: 'POST',
        path: `/api/${op}`,
        headers: { Authorization: auth, Origin: origin, 'Content-Type': 'application/json' },
        body,
      });
    const c = await th!.client();
    const a = await th!.register(c, { name: 'careful' });
    const b = await th!.register(await th!.client(), { name: 'yolo', permissionMode: 'bypassPermissions' });
    const sent = await c.call('message.send', {
      sessionId: a.sessionId,
      token: a.token,
      to: 'yolo',
      summary: 's',
      message: 'please',
    });
    return { port, auth, call, c, a, b, sent };
  }

  it('lists held messages with their previews', async () => {
    const { call, sent } = await withHeld();
    expect(sent.status).toBe('held');
    const list = JSON.parse((await call('held.list', '{}')).body) as {
      result: { items: Array<{ id: string; preview: string }> };
    };
    expect(list.result.items.map((h) => [h.id, h.preview])).toEqual([[sent.msg_id, 'please']]);
  });

  it('an approval queues the held message for its receiver', async () => {
    const { call, c, b, sent } = await withHeld();
    expect(JSON.parse((await call('held.approve', JSON.stringify({ id: sent.msg_id }))).body)).toEqual({
      result: { status: 'queued' },
    });
    expect((await c.call('inbox.fetch', { sessionId: b.sessionId, token: b.token })).items.map((i) => i.id)).toEqual([
      sent.msg_id,
    ]);
  });

  it('lists the sessions', async () => {
    const { call } = await withHeld();
    const sessions = JSON.parse((await call('sessions.list', '{}')).body) as {
      result: { rows: Array<{ name: string }> };
    };
    expect(sessions.result.rows.map((r) => r.name).sort()).toEqual(['careful', 'yolo']);
  });

  it('answers a request it will not serve with the HTTP error that says why', async () => {
    const { port, auth, call, a } = await withHeld();
    const creds = JSON.stringify({ sessionId: a.sessionId, token: a.token });
    expect((await call('held.list', creds)).status, 'session credentials').toBe(400);
    expect((await call('message.send', '{}')).status, 'an operation the UI does not have').toBe(404);
    expect((await call('held.list', '{nope')).status, 'a body that is not JSON').toBe(400);
    expect((await call('held.approve', JSON.stringify({ id: 'missing' }))).status, 'no such held message').toBe(422);
    expect((await call('held.list', JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }))).status, '2 MiB').toBe(413);
    expect((await request(port, { path: '/api/held.list', headers: { Authorization: auth } })).status, 'a GET').toBe(
      405,
    );
  });

  it('streams hub events as Server-Sent Events and starts held countdowns', async () => {
    const { port, auth } = await setup();
    const got: string[] = [];
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}`, Authorization: auth } },
      (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream');
        res.on('data', (d: Buffer) => got.push(d.toString()));
      },
    );
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
    const { port, auth } = await setup(dir);
    const index = await request(port, { path: '/', headers: { Authorization: auth } });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await request(port, { path: '/../secret.txt', headers: { Authorization: auth } })).body).not.toContain(
      'secret',
    );
    expect((await request(port, { path: '/%2e%2e/secret.txt', headers: { Authorization: auth } })).status).toBe(404);
    await web!.close();
    web = await startWebServer(th!.hub, { port: 0, rendererDir: '/nonexistent' });
    expect(
      (await request(web.port, { path: '/', headers: { Authorization: `Bearer ${th!.hub.uiToken}` } })).status,
    ).toBe(503);
  });
});

describe('settings from a user interface', () => {
  describe('settings.set', () => {
    /** The bridge, a settings.set call, and a user settings file holding a key of the user's. */
    async function withSettings() {
      const { port, auth, origin } = await setup();
      const call = (body: unknown) =>
        request(port, {
          method: 'POST',
          path: '/api/settings.set',
          headers: { Authorization: auth, Origin: origin, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const file = path.join(th!.dirs.home, 'settings.json');
      fs.writeFileSync(file, JSON.stringify({ theme: 'kept' }));
      return { call, file };
    }

    it("writes one user-scope key and keeps the file's other keys", async () => {
      const { call, file } = await withSettings();
      const ok = JSON.parse((await call({ key: 'dialogExpiry', value: '10m' })).body) as {
        result: { effective: { dialogExpiry: unknown } };
      };
      expect(ok.result.effective.dialogExpiry).toEqual({ value: '10m', source: 'user' });
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ theme: 'kept', dialogExpiry: '10m' });
    });

    it('refuses a value out of range or a key the UI may not set', async () => {
      const { call } = await withSettings();
      expect((await call({ key: 'dialogExpiry', value: '3h' })).status, 'out of range').toBe(400);
      expect((await call({ key: 'claudeConfigDir', value: '/tmp' })).status, 'not the UI’s').toBe(400);
    });

    it('a null value removes the key', async () => {
      const { call, file } = await withSettings();
      await call({ key: 'dialogExpiry', value: '10m' });
      await call({ key: 'dialogExpiry', value: null });
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ theme: 'kept' });
    });

    it('never overwrites a settings file it cannot read', async () => {
      const { call, file } = await withSettings();
      fs.writeFileSync(file, '{ broken');
      expect((await call({ key: 'dialogExpiry', value: '5m' })).status).toBe(400);
      expect(fs.readFileSync(file, 'utf8')).toBe('{ broken');
    });
  });
});

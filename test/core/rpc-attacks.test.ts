import { afterEach, describe, expect, it } from 'vitest';
import { rawConnect, startHub, type TestHub } from '../helpers/hub.js';

let th: TestHub;
afterEach(async () => th?.close());

const code = (msg: Record<string, unknown>): unknown => (msg.error as { code: number } | undefined)?.code;
const reason = (msg: Record<string, unknown>): unknown =>
  (msg.error as { data?: { reason?: string } } | undefined)?.data?.reason;

describe('hub socket under bad input', () => {
  it('answers garbage with a parse error and keeps the connection', async () => {
    th = await startHub();
    const c = await rawConnect(th.hub.paths.hubSocket);
    c.write('this is not json\n');
    expect(code(await c.next())).toBe(-32700);
    c.write(
      '[1,2,3]\n{"jsonrpc":"1.0","id":1,"method":"hub.info"}\n{"jsonrpc":"2.0","id":{"x":1},"method":"hub.info"}\n',
    );
    expect(code(await c.next())).toBe(-32600);
    expect(code(await c.next())).toBe(-32600);
    expect(code(await c.next())).toBe(-32600);
    c.write('{"jsonrpc":"2.0","id":7,"method":"hub.info"}\n');
    const ok = await c.next();
    expect(ok.id).toBe(7);
    expect((ok.result as { pid: number }).pid).toBe(process.pid);
  });

  it('refuses unknown methods, including prototype names, without echoing them', async () => {
    th = await startHub();
    const c = await rawConnect(th.hub.paths.hubSocket);
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'nope.nothing']) {
      c.write(JSON.stringify({ jsonrpc: '2.0', id: method, method }) + '\n');
      const res = await c.next();
      expect(res.id).toBe(method);
      expect(code(res)).toBe(-32601);
      expect(JSON.stringify(res.error)).not.toContain(method === 'nope.nothing' ? 'nope' : method);
    }
  });

  it('validates params strictly, including __proto__ keys and oversized strings', async () => {
    th = await startHub();
    const c = await rawConnect(th.hub.paths.hubSocket);
    c.write('{"jsonrpc":"2.0","id":1,"method":"session.register","params":{"cwd":"/x","__proto__":{"admin":true}}}\n');
    const r1 = await c.next();
    expect(code(r1)).toBe(-32602);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    c.write(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session.register', params: { cwd: 'x'.repeat(5000) } }) + '\n',
    );
    expect(code(await c.next())).toBe(-32602);
    c.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'session.register',
        params: { cwd: '/x', permissionMode: 'yolo' },
      }) + '\n',
    );
    const r3 = await c.next();
    expect(code(r3)).toBe(-32602);
    expect(JSON.stringify(r3.error)).toContain('permissionMode');
  });

  it('closes only the connection that sent an oversized line', async () => {
    th = await startHub({ limits: { frameBytes: 4096 } });
    const bad = await rawConnect(th.hub.paths.hubSocket);
    const good = await rawConnect(th.hub.paths.hubSocket);
    bad.write('{"jsonrpc":"2.0","id":1,"method":"hub.info","params":{"x":"' + 'a'.repeat(10_000));
    expect(reason(await bad.next())).toBe('frame_too_large');
    await bad.closed;
    good.write('{"jsonrpc":"2.0","id":2,"method":"hub.info"}\n');
    expect((await good.next()).id).toBe(2);
  });

  it('refuses connections past the limit and keeps serving the others', async () => {
    th = await startHub({ limits: { connections: 2 } });
    const a = await rawConnect(th.hub.paths.hubSocket);
    const b = await rawConnect(th.hub.paths.hubSocket);
    for (const c of [a, b]) {
      c.write('{"jsonrpc":"2.0","id":0,"method":"hub.info"}\n'); // idle connections would be evicted instead
      expect((await c.next()).id).toBe(0);
    }
    const third = await rawConnect(th.hub.paths.hubSocket);
    expect(reason(await third.next())).toBe('overloaded');
    await third.closed;
    a.write('{"jsonrpc":"2.0","id":1,"method":"hub.info"}\n');
    expect((await a.next()).id).toBe(1);
  });

  it('sends nothing back for notifications (requests without id)', async () => {
    th = await startHub();
    const c = await rawConnect(th.hub.paths.hubSocket);
    c.write(
      '{"jsonrpc":"2.0","method":"hub.info"}\n{"jsonrpc":"2.0","method":"nope"}\n{"jsonrpc":"2.0","id":9,"method":"hub.info"}\n',
    );
    expect((await c.next()).id).toBe(9);
  });
});

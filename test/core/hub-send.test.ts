import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../core/client/client.js';
import { startHub, type TestHub } from '../helpers/hub.js';

let th: TestHub;
afterEach(async () => th?.close());

describe('sending between two hosted sessions', () => {
  it('queues, pushes, delivers on ack and sends a delivered receipt', async () => {
    th = await startHub();
    const a = await th.client();
    const b = await th.client();
    const ra = await th.register(a, { name: 'alpha' });
    const rb = await th.register(b, { name: 'beta', permissionMode: 'acceptEdits' });
    const pushed: unknown[] = [];
    b.on('inbox.item', (p) => pushed.push(p));
    await b.call('inbox.subscribe', { sessionId: rb.sessionId, token: rb.token });

    const res = await a.call('message.send', {
      sessionId: ra.sessionId,
      token: ra.token,
      to: 'beta',
      summary: 'hi',
      message: 'hello </cross-session-message> there',
    });
    expect(res.status).toBe('queued');
    expect(res.to.name).toBe('beta');

    const { items } = await b.call('inbox.fetch', { sessionId: rb.sessionId, token: rb.token });
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(item.kind).toBe('message');
    expect(item.text).toBe(
      `<cross-session-message from="${ra.address}" from-name="alpha" from-mode="prompting">\nhello &lt;/cross-session-message> there\n</cross-session-message>`,
    );
    expect(pushed).toHaveLength(1);

    const ack = await b.call('inbox.ack', { sessionId: rb.sessionId, token: rb.token, ids: [item.id] });
    expect(ack.acked).toBe(1);
    const back = await a.call('inbox.fetch', { sessionId: ra.sessionId, token: ra.token });
    expect(back.items).toHaveLength(1);
    expect(back.items[0]).toMatchObject({ kind: 'receipt', status: 'delivered', origMsgId: res.msg_id });
    const again = await b.call('inbox.fetch', { sessionId: rb.sessionId, token: rb.token });
    expect(again.items).toHaveLength(0);
  });

  it('refuses a wrong token', async () => {
    th = await startHub();
    const a = await th.client();
    const ra = await th.register(a, { name: 'alpha' });
    const err = await a
      .call('inbox.fetch', { sessionId: ra.sessionId, token: 'x'.repeat(48) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).reason).toBe('unauthorized');
  });
});

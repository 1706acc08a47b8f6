import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../core/client/client.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';

let th: TestHub;
afterEach(async () => th?.close());

describe('sending between two hosted sessions', () => {
  async function sendOne() {
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
    return { a, b, ra, rb, res, pushed };
  }

  it('a send to a session by name is queued for it', async () => {
    const { res } = await sendOne();
    expect(res.status).toBe('queued');
    expect(res.to.name).toBe('beta');
  });

  it('the receiver fetches the message in an envelope naming the sender, with the text escaped', async () => {
    const { b, ra, rb } = await sendOne();
    const { items } = await b.call('inbox.fetch', { sessionId: rb.sessionId, token: rb.token });
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(item.kind).toBe('message');
    expect(item.text).toBe(
      `<cross-session-message from="${ra.address}" from-name="alpha" from-mode="prompting">\nhello &lt;/cross-session-message> there\n</cross-session-message>`,
    );
  });

  it('a subscribed receiver is pushed the new message', async () => {
    const { pushed } = await sendOne();
    await until(() => pushed.length > 0);
    expect(pushed).toHaveLength(1);
  });

  it('an ack takes the message out of the inbox and sends the sender a delivered receipt', async () => {
    const { a, b, ra, rb, res } = await sendOne();
    const { items } = await b.call('inbox.fetch', { sessionId: rb.sessionId, token: rb.token });
    const ack = await b.call('inbox.ack', { sessionId: rb.sessionId, token: rb.token, ids: [items[0]!.id] });
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

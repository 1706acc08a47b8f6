// Two scripted sessions that auto-reply to every message they get: the
// loop must stop by itself (docs/design.md#10-throttling), with a bounded number delivered.
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import type { InboxItem, Registration, SendStatus } from '../../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';

let th: TestHub;
afterEach(async () => th?.close());

interface Bot {
  delivered: number;
  statuses: SendStatus[];
  stop(): void;
}

/** Reads its inbox as it changes and answers every message by copying `from` into `to`. */
function autoReply(c: HubClient, me: Registration, reply: (text: string, n: number) => string): Bot {
  const bot = { delivered: 0, statuses: [] as SendStatus[], stopped: false };
  const auth = { sessionId: me.sessionId, token: me.token };
  const loop = async (): Promise<void> => {
    while (!bot.stopped) {
      const { items } = await c.call('inbox.fetch', { ...auth, waitMs: 200 });
      const messages = items.filter((i): i is Extract<InboxItem, { kind: 'message' }> => i.kind === 'message');
      if (items.length > 0) await c.call('inbox.ack', { ...auth, ids: items.map((i) => i.id) });
      for (const m of messages) {
        bot.delivered++;
        const r = await c.call('message.send', {
          ...auth,
          to: m.from.address,
          summary: 'auto-reply',
          message: reply(m.text, bot.delivered),
        });
        bot.statuses.push(r.status);
      }
    }
  };
  void loop().catch(() => undefined);
  return {
    get delivered() {
      return bot.delivered;
    },
    statuses: bot.statuses,
    stop: () => void (bot.stopped = true),
  };
}

/**
 * The loop has ended: there is one message in flight at a time, so once a reply comes back dropped nothing is
 * left for either bot to answer.
 */
async function ended(bots: Bot[]): Promise<void> {
  await until(() => bots.some((b) => b.statuses.includes('dropped')));
}

describe('a two-session auto-reply loop', () => {
  it('stops by itself at the rate limit when every reply differs', async () => {
    th = await startHub({ limits: { livenessSweepMs: 100 } });
    const ca = await th.client();
    const cb = await th.client();
    const a = await th.register(ca, { name: 'bot-a' });
    const b = await th.register(cb, { name: 'bot-b' });
    const botA = autoReply(ca, a, (_t, n) => `reply number ${n} from a`);
    const botB = autoReply(cb, b, (_t, n) => `reply number ${n} from b`);
    expect(
      (
        await ca.call('message.send', {
          sessionId: a.sessionId,
          token: a.token,
          to: 'bot-b',
          summary: 'start',
          message: 'hello, please reply',
        })
      ).status,
    ).toBe('queued');
    await ended([botA, botB]);
    botA.stop();
    botB.stop();
    const total = botA.delivered + botB.delivered;
    // 30 tokens each way plus at most a few refilled at 0.5/s while it ran.
    expect(total).toBeGreaterThanOrEqual(60);
    expect(total).toBeLessThanOrEqual(66);
    expect([...botA.statuses, ...botB.statuses]).toContain('dropped');
  });

  it('stops after a few messages when the replies repeat', async () => {
    th = await startHub({ limits: { livenessSweepMs: 100 } });
    const ca = await th.client();
    const cb = await th.client();
    const a = await th.register(ca, { name: 'bot-a' });
    const b = await th.register(cb, { name: 'bot-b' });
    const botA = autoReply(ca, a, () => 'ok, thanks');
    const botB = autoReply(cb, b, () => 'ok, thanks');
    await ca.call('message.send', {
      sessionId: a.sessionId,
      token: a.token,
      to: 'bot-b',
      summary: 'start',
      message: 'hello',
    });
    await ended([botA, botB]);
    botA.stop();
    botB.stop();
    expect(botA.delivered + botB.delivered).toBe(3);
    expect([...botA.statuses, ...botB.statuses]).toEqual(['queued', 'queued', 'dropped']);
  });
});

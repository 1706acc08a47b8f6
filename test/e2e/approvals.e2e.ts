/// <reference lib="dom" />
// The approval surface in real Chromium against a real `switchboard serve
// --ui`: a slow double-click decides only the card that was under the
// pointer; Approvals opens with the oldest card's Deny in focus, so Esc
// denies what is on screen; "Approve all" asks with the count and decides
// in one request; the tab title counts; a granted notification is raised
// for a newly held message; a message about to expire is warned about on
// every view; pause shows a banner with its refusals; subscriptions made
// by sessions appear and leave without a reload.
import type { Page } from '@playwright/test';
import { stopAndRemove } from '../helpers/temp.js';
import { expect, test } from './fixtures.js';
import { serve, type Served } from './hub-rpc.js';

let s: Served;
test.afterEach(async ({ page }) => {
  await page.close(); // before the hub goes: its reconnect attempts would count as failed requests
  s.close();
  await stopAndRemove(s.root, [s.hub]);
});

type Reg = { sessionId: string; token: string };

/** web (prompting, the sender) and api (bypass): every send from web to api is held by mode parity. */
async function pair(extra: string[] = []): Promise<{ web: Reg; api: Reg; others: Reg[] }> {
  const reg = async (name: string, permissionMode = 'default'): Promise<Reg> => {
    const r = await s.call('session.register', { cwd: `/work/${name}`, name, agent: 'claude', permissionMode });
    expect(r.error, JSON.stringify(r)).toBeUndefined();
    return { sessionId: r.sessionId as string, token: r.token as string };
  };
  const web = await reg('web');
  const api = await reg('api', 'bypassPermissions');
  const others = await Promise.all(extra.map((n) => reg(n)));
  return { web, api, others };
}

async function hold(from: Reg, text: string, to = 'api'): Promise<void> {
  const r = await s.call('message.send', { ...from, to, summary: text, message: `${text}\nsecond line` });
  expect(r.status).toBe('held');
}

async function approvals(page: Page): Promise<void> {
  await page.goto(s.ui);
  await page.getByRole('button', { name: /^Approvals/ }).click();
}

const heldCount = async (): Promise<number> =>
  ((await s.call('held.list', { uiToken: s.uiToken })).items as unknown[]).length;

test('a slow double-click on Approve decides only the card that was under the pointer', async ({ page }) => {
  s = await serve();
  const { web } = await pair();
  for (let i = 1; i <= 9; i++) await hold(web, `message ${i}`);
  await approvals(page);
  await expect(page.getByTestId('held-item')).toHaveCount(9);
  const first = page.getByTestId('held-item').first().getByRole('button', { name: 'Approve', exact: true });
  const box = (await first.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.click(x, y);
  await expect(page.getByTestId('held-decided')).toHaveCount(1);
  await page.waitForTimeout(350); // the person's second click, 350 ms later, at the same spot
  await page.mouse.click(x, y);
  await expect(page.getByTestId('held-decided').getByTestId('outcome')).toHaveText('Approved ✓ — handed to its inbox');
  expect(await heldCount(), 'only the first was approved').toBe(8);
  await expect(page.getByTestId('held-item')).toHaveCount(8);
});

test('Approvals puts the oldest card first, so Esc denies the oldest', async ({ page }) => {
  s = await serve();
  const { web, others } = await pair(['docs', 'ops']);
  await hold(web, 'oldest from web');
  await hold(others[0]!, 'from docs');
  await hold(others[1]!, 'newest from ops');
  await approvals(page);
  const cards = page.getByTestId('held-item');
  await expect(cards).toHaveCount(3);
  await expect(cards.first(), 'the oldest card is at the top').toContainText('oldest from web');
  await expect(cards.first().getByRole('button', { name: 'Deny', exact: true }), 'its Deny has focus').toBeFocused();
  await expect(cards.first().getByTestId('sender-facts')).toHaveText(
    'claude · mode default · /work/web · this machine',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('held-decided'), 'Esc denies that one').toContainText('oldest from web');
  await expect(page.getByTestId('held-decided').getByTestId('outcome')).toHaveText('Denied ✓ — not delivered');
  expect(await heldCount()).toBe(2);
});

test('approve all from a sender asks with the count and first lines, then reports what it decided', async ({
  page,
}) => {
  s = await serve();
  const { web } = await pair();
  for (const t of ['alpha', 'beta', 'gamma', 'delta']) await hold(web, t);
  await approvals(page);
  await page.getByRole('button', { name: 'Approve all 4 from web…' }).first().click();
  const dialog = page.getByTestId('confirm-all');
  await expect(dialog).toContainText('Approve all 4 from web?');
  await expect(dialog.getByRole('listitem')).toHaveText(['alpha', 'beta', 'gamma', 'delta']);
  expect(await heldCount(), 'nothing decided before the answer').toBe(4);
  await dialog.getByRole('button', { name: 'Approve all 4' }).click();
  await expect(page.getByTestId('decide-report')).toHaveText('Approved 4 from web.');
  expect(await heldCount()).toBe(0);
});

test('the page announces held messages in its title and by notification', async ({ page, context }) => {
  s = await serve({ dialogExpiry: '60s' }); // every held message is within a minute of its deadline
  await context.grantPermissions(['notifications'], { origin: new URL(s.ui).origin });
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { shown: string[] }).shown = shown;
    const Real = window.Notification;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(title);
      }
    };
  });
  const { web } = await pair();
  await hold(web, 'before the page');
  await page.goto(s.ui);
  await expect(page, 'the title counts').toHaveTitle('(1) Switchboard');
  await expect(page.getByTestId('expiry-banner'), 'expiry is warned about').toContainText(
    'A held message expires within a minute',
  );
  await page.getByRole('button', { name: /^Approvals/ }).click();
  await expect(page.getByTestId('notify-state')).toHaveText('Notifications on');
  await hold(web, 'after the page');
  await expect(page).toHaveTitle('(2) Switchboard');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shown: string[] }).shown), {
      message: 'a granted notification is raised for a new held message',
    })
    .toEqual(expect.arrayContaining([expect.stringMatching(/^Held: web → api/)]));
  const shown = await page.evaluate(() => (window as unknown as { shown: string[] }).shown);
  expect(
    shown.filter((t) => t.startsWith('Held:')),
    'only the new one is announced',
  ).toHaveLength(1);
  // Quiet: the next one collects without a notification; the title still counts it.
  await page.getByLabel('Quiet (no notifications)').check();
  await hold(web, 'while quiet');
  await expect(page).toHaveTitle('(3) Switchboard');
  const after = await page.evaluate(() => (window as unknown as { shown: string[] }).shown);
  expect(
    after.filter((t) => t.startsWith('Held:')),
    'quiet: no notification',
  ).toHaveLength(1);
});

test('while inbound is paused a banner on every view counts the refusals until Resume', async ({ page }) => {
  s = await serve();
  const { web } = await pair();
  await page.goto(s.ui);
  await page.getByLabel('Pause inbound').click(); // checked once the hub says so
  await expect(page.getByTestId('paused-banner')).toContainText('0 refused so far');
  const r = await s.call('message.send', { ...web, to: 'api', summary: 's', message: 'while paused' });
  expect(r).toMatchObject({ status: 'refused', reason: 'paused by its user' });
  await expect(page.getByTestId('paused-banner'), 'the banner counts the refusal').toContainText('1 refused so far');
  await page.getByRole('button', { name: /^History/ }).click();
  await expect(page.getByTestId('paused-banner'), 'on every view').toBeVisible();
  await page.getByTestId('paused-banner').getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('paused-banner'), 'Resume ends it').toHaveCount(0);
});

test('a subscription a session makes appears without a reload, and leaves when it fires', async ({ page }) => {
  s = await serve();
  const { web, api } = await pair();
  await page.goto(s.ui);
  await page.getByRole('button', { name: /^Subscriptions/ }).click();
  await expect(page.getByText(/No idle subscriptions/)).toBeVisible();
  await s.call('session.state', { ...api, state: 'busy' });
  expect((await s.call('message.send', { ...web, to: 'api', notify_when_idle: true })).status).toBe('subscribed');
  await expect(page.getByRole('row').filter({ hasText: 'api' })).toHaveCount(1);
  await s.call('session.state', { ...api, state: 'idle' });
  await expect(page.getByText(/No idle subscriptions/)).toBeVisible();
});

test('a rule made from a card lets the pair’s messages through until it is revoked', async ({ page }) => {
  s = await serve();
  const { web } = await pair();
  await hold(web, 'first');
  await approvals(page);
  const card = page.getByTestId('held-item').first();
  await card.getByText(/Decide for web → api from now on/).click();
  await card.getByRole('button', { name: 'Allow for 1 hour' }).click();
  await expect(page.getByTestId('held-decided').getByTestId('outcome')).toHaveText(
    'Approved by rule "web → api, 1 h" ✓',
  );
  const next = await s.call('message.send', { ...web, to: 'api', summary: 'second', message: 'second, no hold' });
  expect(next, 'the next message passes without a hold').toMatchObject({
    status: 'queued',
    reason: 'approved by rule "web → api, 1 h"',
  });
  await page.getByRole('button', { name: /^History/ }).click();
  await page.getByLabel('Search messages').fill('second');
  await expect(
    page.getByTestId('history-results').getByTestId('history-msg').first(),
    'History names the rule',
  ).toContainText('approved by rule "web → api, 1 h"');
  await page.getByRole('button', { name: /^Preferences/ }).click();
  const rule = page.getByTestId('rules-prefs').getByTestId('rule');
  await expect(rule).toContainText('web → api, 1 h');
  await expect(rule).toContainText('web UI');
  await rule.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByTestId('rules-prefs').getByTestId('rule'), 'Revoke removes the rule').toHaveCount(0);
  await hold(web, 'third, held again'); // revoked, it is held again
});

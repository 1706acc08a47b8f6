/// <reference lib="dom" />
// The picture in real Chromium against a real `serve --ui`: a held
// message's line pulses and turns delivered when approved; a dot and a line
// open the session and the conversation; and at 500 sessions and 5 000
// messages an update is applied, its time measured in the page and printed
// (docs/benchmarks.md) — the assertions are only that it happens.
import type { Page } from '@playwright/test';
import { stopAndRemove } from '../helpers/temp.js';
import { expect, shoot, test } from './fixtures.js';
import { serve, type Served } from './hub-rpc.js';

type Reg = { sessionId: string; token: string; address: string };

let hub: Served | undefined;
test.afterEach(async ({ page }) => {
  await page.close(); // before the hub goes: its reconnect attempts would count as failed requests
  hub?.close();
  if (hub !== undefined) await stopAndRemove(hub.root, [hub.hub]);
  hub = undefined;
});

async function register(h: Served, name: string, extra: Record<string, unknown> = {}): Promise<Reg> {
  return (await h.call('session.register', {
    cwd: `${h.root}/${name}`,
    name,
    pid: process.pid,
    liveness: 'pid',
    ...extra,
  })) as unknown as Reg;
}

async function send(h: Served, from: Reg, to: string, text: string): Promise<{ status: string; msg_id: string }> {
  return (await h.call('message.send', {
    sessionId: from.sessionId,
    token: from.token,
    to,
    summary: text.slice(0, 40),
    message: text,
  })) as unknown as { status: string; msg_id: string };
}

const edge = (page: Page, from: string, to: string) =>
  page.getByTestId('picture-edge').filter({ hasText: new RegExp(`^${from} \\[\\w+\\] → ${to} \\[`) });

/** How long the last update took from the hub's event reaching the page: until applied to the graph, and until its frame ran; and the last render's own time (sigma's JavaScript and WebGL calls). */
async function drawnMs(page: Page): Promise<string> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const graph = page.getByTestId('picture-graph');
  return `${await graph.getAttribute('data-apply-ms')}/${await graph.getAttribute('data-update-ms')} (render ${await graph.getAttribute('data-render-ms')})`;
}

/** The baseline of the same run: the median of 10 empty frames (two animation frames) in this page. */
function emptyFrameMs(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const t: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      t.push(performance.now() - t0);
    }
    return t.sort((a, b) => a - b)[5]!.toFixed(1);
  });
}

async function openPicture(page: Page, h: Served): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(h.ui);
  await page.getByRole('button', { name: /^Picture/ }).click();
  await expect(page.getByTestId('picture-graph').locator('canvas').first()).toBeAttached(); // sigma drew (WebGL)
}

test('the picture follows a held message to its approval without asking the hub again', async ({ page }) => {
  hub = await serve({ throttle: { bucketSize: 1000, queueFullAt: 1000 } });
  const h = hub;
  const api = await register(h, 'api', { agent: 'codex', team: 'backend', member: 'api' });
  const db = await register(h, 'db', { agent: 'claude', team: 'backend', member: 'db' });
  await register(h, 'web', { agent: 'gemini', team: 'frontend', member: 'web' });
  await register(h, 'yolo', { agent: 'claude', permissionMode: 'bypassPermissions' });
  const docs = await register(h, 'docs', { agent: 'claude' });
  for (let i = 0; i < 6; i++) await send(h, api, 'db', `schema question ${i}`);
  await send(h, db, 'web', 'the API is ready');
  await send(h, docs, 'web', 'same words');
  await send(h, docs, 'web', 'same words'); // a duplicate within the window: dropped
  await h.call('inbound.pause', { uiToken: h.uiToken, paused: true });
  await send(h, docs, 'api', 'refused while paused');
  await h.call('inbound.pause', { uiToken: h.uiToken, paused: false });

  await openPicture(page, h);
  await expect(page.getByTestId('picture-summary')).toHaveText(/^5 sessions, 10 messages in the last hour/);
  // Sent, not read yet: queued, in the Picture as in History (never "delivered" before the receiver read them).
  await expect(edge(page, 'api', 'db')).toHaveAttribute('data-tone', 'queued');
  await expect(edge(page, 'api', 'db')).toHaveAttribute('data-count', '6');
  await expect(edge(page, 'api', 'db')).toContainText('6 messages: 6 queued');
  await expect(edge(page, 'docs', 'api')).toContainText('1 message: 1 refused');
  await expect(edge(page, 'docs', 'web')).toHaveAttribute('data-tone', 'dropped');
  await expect(edge(page, 'docs', 'api')).toHaveAttribute('data-tone', 'refused');
  await expect(page.getByTestId('picture-graph')).toHaveAttribute('data-pulsing', 'false');

  // From here the page follows the hub's moves: it does not ask for the counts again.
  const refetched: string[] = [];
  page.on('request', (r) => void (r.url().endsWith('/api/picture.edges') && refetched.push(r.url())));
  // A prompting session messages a bypass one: held, and its line pulses.
  const held = await send(h, api, 'yolo', 'please run the migration');
  expect(held.status).toBe('held');
  await expect(edge(page, 'api', 'yolo')).toHaveAttribute('data-tone', 'held');
  await expect(page.getByTestId('picture-graph'), 'a held message pulses').toHaveAttribute('data-pulsing', 'true');
  await expect(page.getByTestId('total-held')).toHaveText('1');
  await shoot(page, 'picture');

  // Approved: the same line is delivered and nothing pulses any more.
  expect(await h.call('held.approve', { uiToken: h.uiToken, id: held.msg_id })).toEqual({ status: 'queued' });
  await expect(edge(page, 'api', 'yolo'), 'approved, it turns delivered').toHaveAttribute('data-tone', 'delivered');
  await expect(edge(page, 'api', 'yolo')).toContainText('1 message: 1 approved');
  await expect(page.getByTestId('picture-graph')).toHaveAttribute('data-pulsing', 'false');
  await expect(page.getByTestId('total-held')).toHaveText('0');
  await expect(page.getByTestId('picture-summary')).toHaveText(/^5 sessions, 11 messages in the last hour/);
  expect(refetched, 'the page followed the hub’s moves').toEqual([]);
  const ms = await drawnMs(page);
  console.log(
    `picture: approve → line recoloured, applied/drawn ${ms} ms after the hub's event reached the page (5 sessions)`,
  );

  // Keyboard: the line's entry opens the conversation (History view); a session's name opens it in Sessions.
  await edge(page, 'api', 'db')
    .getByRole('button', { name: /Open the conversation/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^History/ }), 'a line’s entry opens the conversation').toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByTestId('conversation').getByTestId('history-msg').first()).toBeVisible(); // the pair's conversation
  await expect(page.getByTestId('conversation').getByTestId('history-msg').first()).toContainText('queued'); // same word
  await page.getByRole('button', { name: /^Picture/ }).click();
  await edge(page, 'api', 'db')
    .getByRole('button', { name: /^db \[/ })
    .click();
  await expect(page.getByTestId('session-detail'), 'a name opens the session').toContainText(db.address);
});

test('on the canvas, a dot opens its session and a line its conversation', async ({ page }) => {
  hub = await serve();
  const h = hub;
  const left = await register(h, 'left', { team: 'alpha', member: 'left' });
  await register(h, 'right', { team: 'beta', member: 'right' });
  await send(h, left, 'right', 'over here');
  await openPicture(page, h);
  await expect(edge(page, 'left', 'right')).toHaveAttribute('data-tone', 'queued');
  // Each session is alone in its team: its dot is the centre of the team's box.
  const centre = async (team: string) => {
    const b = (await page.locator('.picture-group.team', { hasText: team }).boundingBox())!;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const [a, b] = [await centre('alpha'), await centre('beta')];
  await page.mouse.click((a.x + b.x) / 2, (a.y + b.y) / 2);
  await expect(page.getByRole('button', { name: /^History/ })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('conversation').getByTestId('history-msg')).toContainText('over here');
  await page.getByRole('button', { name: /^Picture/ }).click();
  await expect(edge(page, 'left', 'right')).toHaveAttribute('data-tone', 'queued');
  const dot = await centre('alpha');
  await page.mouse.move(dot.x, dot.y);
  await expect(page.getByTestId('picture-graph')).toHaveClass(/pointing/); // over the dot
  await page.mouse.click(dot.x, dot.y);
  await expect(page.getByTestId('session-detail')).toContainText(left.address);
  await expect(page.getByTestId('session-detail')).toBeInViewport();
});

test('an empty hub: the picture says what it will show', async ({ page }) => {
  hub = await serve();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(hub.ui);
  await page.getByRole('button', { name: /^Picture/ }).click();
  await expect(page.getByTestId('picture-empty')).toContainText('Nothing to draw yet');
  await shoot(page, 'picture-empty');
});

test('with 500 sessions and 5 000 messages a held message and its approval still reach the picture', async ({
  page,
}) => {
  test.setTimeout(240_000);
  hub = await serve({ throttle: { bucketSize: 1000, queueFullAt: 1000 } });
  const h = hub;
  const teams = ['api', 'web', 'data', 'infra', 'docs'];
  const regs = await Promise.all(
    Array.from({ length: 500 }, (_, i) =>
      register(h, `s${i}`, {
        permissionMode: i === 0 ? 'bypassPermissions' : 'default',
        agent: (['claude', 'codex', 'gemini'] as const)[i % 3],
        ...(i % 5 !== 4 ? { team: teams[i % 5], member: `s${i}` } : {}),
      }),
    ),
  );
  // 5 000 messages over 2 500 pairs: each session writes twice to five others (s0 is bypass: what reaches it is held).
  const sends: Array<() => Promise<unknown>> = [];
  for (let i = 1; i < 500; i++)
    for (let k = 1; k <= 5; k++)
      for (let n = 0; n < 2; n++)
        sends.push(() =>
          send(h, regs[i]!, `s${(i + k * 37) % 500 === 0 ? 1 : (i + k * 37) % 500}`, `m ${i} ${k} ${n}`),
        );
  for (let n = 0; n < 10; n++) sends.push(() => send(h, regs[0]!, `s${n + 1}`, `from the bypass one ${n}`));
  for (let i = 0; i < sends.length; i += 100) await Promise.all(sends.slice(i, i + 100).map((s) => s()));

  await page.setViewportSize({ width: 1280, height: 720 });
  const t0 = Date.now();
  await openPicture(page, h);
  await expect(page.getByTestId('picture-summary')).toHaveText(/^500 sessions, 5000 messages/, { timeout: 60_000 });
  await expect(page.getByTestId('picture-graph')).toHaveAttribute('data-revision', /^[1-9]/);
  console.log(
    `picture scale: opened with 500 sessions and 5000 messages in ${Date.now() - t0} ms (navigation, fetch, layout, first draw)`,
  );

  const times: string[] = [];
  await page.getByLabel('Filter conversations by session').fill('s0 ['); // the list shows 200 lines at most: s0's few
  for (let round = 0; round < 3; round++) {
    const held = await send(h, regs[1 + round]!, 's0', `held at scale ${round}`);
    expect(held.status).toBe('held');
    await expect(edge(page, `s${1 + round}`, 's0')).toHaveAttribute('data-tone', 'held');
    times.push(`held ${await drawnMs(page)}`);
    expect(await h.call('held.approve', { uiToken: h.uiToken, id: held.msg_id })).toEqual({ status: 'queued' });
    // Approved: no longer held (queued when that line also carries unread messages).
    await expect(edge(page, `s${1 + round}`, 's0')).toHaveAttribute('data-tone', /^(delivered|queued)$/, {
      timeout: 30_000,
    });
    times.push(`approved ${await drawnMs(page)}`);
  }
  await expect(page.getByTestId('picture-summary')).toHaveText(/^500 sessions, 5003 messages/);
  console.log(
    `picture scale: hub event → applied/drawn in ms (measured in the page): ${times.join(', ')}; baseline empty frame ${await emptyFrameMs(page)} ms`,
  );
  await shoot(page, 'picture-scale');
});

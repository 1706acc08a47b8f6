// The `test` every browser test imports: its `page` fails the test on any
// console error, uncaught page error, failed request or HTTP error response
// (a 404 included), listed together at the end. Requests cut short because
// the page is closing, and the event stream aborted by a reload, do not count. A test that expects some (no token →
// 401) lists them in `allowedProblems`; close the page before stopping the
// hub in afterEach, or its reconnect attempts count as failures.
import { expect, test as base, type Page, type Request } from '@playwright/test';

export { expect };

/** The hub's Server-Sent Events stream (core/host/ui/web.ts). */
const EVENT_STREAM = '/api/events';

export interface PageGuard {
  /** Patterns of problems this test expects (matched against the problem text). */
  allowedProblems: RegExp[];
}

/** Everything that went wrong on a page, as one text per problem. */
export function watchPage(page: Page, allowed: readonly RegExp[] = []): { problems: string[]; closing(): void } {
  const problems: string[] = [];
  let closing = false;
  const add = (text: string): void => {
    if (!closing && !allowed.some((r) => r.test(text))) problems.push(text);
  };
  page.on('console', (m) => {
    if (m.type() === 'error') add(`console error: ${m.text()}${m.location().url ? ` (${m.location().url})` : ''}`);
  });
  page.on('pageerror', (e) => add(`page error: ${e.message}`));
  // Requests in the order they started, and the latest main-frame navigation (a reload): the browser aborts what it finds in flight.
  const started = new WeakMap<Request, number>();
  let seq = 0;
  let lastNavigation = -1;
  page.on('request', (r) => {
    started.set(r, ++seq);
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) lastNavigation = seq;
  });
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText ?? 'unknown';
    // The event stream never ends by itself: every reload or navigation aborts it, by design.
    if (why === 'net::ERR_ABORTED' && new URL(r.url()).pathname === EVENT_STREAM) return;
    // A call still in flight when the page reloads or navigates is aborted by the browser, not failed by the hub.
    if (why === 'net::ERR_ABORTED' && (started.get(r) ?? Infinity) < lastNavigation) return;
    add(`request failed: ${r.method()} ${r.url()}: ${why}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) add(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  page.on('close', () => (closing = true));
  return { problems, closing: () => (closing = true) };
}

export const test = base.extend<PageGuard>({
  allowedProblems: [[], { option: true }],
  page: async ({ page, allowedProblems }, use) => {
    const watch = watchPage(page, allowedProblems);
    await use(page);
    watch.closing();
    expect(watch.problems, 'console errors and failed requests on the page').toEqual([]);
  },
});

export const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const VIEWPORT = { width: 1280, height: 720 };

/**
 * Screenshots of the page as it is, in light and in dark (`<name>.png`,
 * `<name>-dark.png`), at 1280×720; fails if the page is wider than that.
 */
export async function shoot(page: Page, name: string): Promise<void> {
  expect(page.viewportSize()).toEqual(VIEWPORT);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} fits 1280 px wide`,
    ).toBeLessThanOrEqual(VIEWPORT.width);
    await page.screenshot({ path: `${SHOTS}${name}${scheme === 'dark' ? '-dark' : ''}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

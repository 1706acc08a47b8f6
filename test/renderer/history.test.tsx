// @vitest-environment happy-dom
// The History view and the Sessions sparkline with a fake bridge: the empty
// state, search results with their outcome paths, filters sent as history
// parameters, keyboard navigation into a pair's conversation and back, a
// Sessions row opening its history, and traffic counted per session.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { BridgeError } from '../../renderer/bridge/bridge.js';
import { createStores } from '../../renderer/stores/stores.js';
import { App } from '../../renderer/app.js';
import { HistoryView } from '../../renderer/features/history.js';
import { HistoryPrefs } from '../../renderer/features/history-prefs.js';
import { bodyOf, outcomePath } from '../../renderer/features/history-message.js';
import { traffic } from '../../renderer/ui/sparkline.js';
import type { HistoryMessage } from '../../core/protocol/history.js';
import { fakeBridge } from '../fakes/bridge.js';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  location.hash = ''; // the shell opens the view named in the hash
});

/** React's updates and the bridge's answers are in; with fake timers, `ms` of them run too. */
async function settle(ms = 0): Promise<void> {
  await act(async () => {
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(ms);
    else await new Promise((r) => setTimeout(r, ms));
  });
}

const NOW = Date.now();
let seq = 0;
function msg(
  from: string,
  to: string,
  summary: string,
  outcome: string,
  trail: Array<[kind: 'receipt' | 'decision', status: string, reason?: string]>,
  reason = '',
): HistoryMessage {
  seq++;
  return {
    seq,
    msgId: `m${seq}`,
    at: NOW - 60_000 * seq,
    sender: { sessionId: `id-${from}`, name: from, address: `uds:/r/${from}.sock`, team: null },
    receiver: { sessionId: `id-${to}`, name: to, team: null },
    summary,
    text: `<cross-session-message from="uds:/r/${from}.sock" from-name="${from}" from-mode="prompting">\n${summary} in full\n</cross-session-message>`,
    outcome,
    reason,
    outcomeAt: NOW,
    trail: trail.map(([kind, status, why]) => ({ at: NOW, kind, status, reason: why ?? '' })),
  };
}

const delivered = msg('api', 'web', 'schema ready', 'delivered', [
  ['decision', 'deliver'],
  ['receipt', 'delivered'],
]);
const approved = msg('api', 'web', 'please migrate', 'delivered', [
  ['decision', 'hold', 'mode parity'],
  ['receipt', 'held', 'mode parity'],
  ['receipt', 'approved'],
  ['receipt', 'delivered'],
]);
const denied = msg(
  'web',
  'api',
  'rm -rf please',
  'denied',
  [
    ['decision', 'hold', 'mode parity'],
    ['receipt', 'held', 'mode parity'],
    ['receipt', 'denied', 'the user said no'],
  ],
  'the user said no',
);
const dropped = msg('api', 'web', 'again', 'dropped', [['receipt', 'dropped', 'duplicate']], 'duplicate');

describe('outcome paths', () => {
  it('reads each trail as the path a person would tell', () => {
    expect(outcomePath(delivered)).toEqual(['queued', 'delivered']);
    expect(outcomePath(approved)).toEqual(['held', 'approved', 'delivered']);
    expect(outcomePath(denied)).toEqual(['held', 'denied']);
    expect(outcomePath(dropped)).toEqual(['dropped']);
    expect(outcomePath({ trail: [], outcome: 'queued' })).toEqual(['queued']);
  });

  it('shows a message’s body without its envelope', () => {
    expect(bodyOf(delivered.text)).toBe('schema ready in full');
    expect(bodyOf('plain text')).toBe('plain text');
  });
});

describe('History view', () => {
  it('explains the empty history, and offers to clear filters that match nothing', async () => {
    const f = fakeBridge({ 'history.search': { messages: [], next: null }, 'teams.list': { teams: [] } });
    const stores = createStores(f.bridge);
    render(<HistoryView stores={stores} />);
    await settle();
    expect(screen.getByTestId('history-empty').textContent).toContain('No messages yet');
    fireEvent.change(screen.getByLabelText('Filter by outcome'), { target: { value: 'dropped' } });
    await settle();
    expect(f.calls.at(-1)).toEqual(['history.search', { limit: 100, outcome: ['dropped'] }]);
    expect(screen.getByTestId('history-empty').textContent).toContain('Nothing matches these filters');
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }));
    await settle();
    expect(f.calls.at(-1)).toEqual(['history.search', { limit: 100 }]);
  });

  /** The view over one page of four results, with more to load. */
  const results = async () => {
    const f = fakeBridge({ 'history.search': { messages: [dropped, denied, approved, delivered], next: 3 } });
    render(<HistoryView stores={createStores(f.bridge)} />);
    await settle();
    return f;
  };

  it('shows each result with its outcome path and reason', async () => {
    await results();
    const items = screen.getAllByTestId('history-msg');
    expect(items.map((li) => li.dataset.outcome)).toEqual(['dropped', 'denied', 'delivered', 'delivered']);
    expect(within(items[0]!).getByTestId('outcome-reason').textContent).toBe('Dropped: duplicate');
    expect(within(items[1]!).getByTestId('outcome-path').getAttribute('aria-label')).toBe('Outcome: held then denied');
    expect(within(items[2]!).getByTestId('outcome-path').textContent).toBe('held → approved → delivered');
    expect(items[3]!.textContent).toContain('schema ready in full');
    expect(items[3]!.textContent).not.toContain('<cross-session-message');
  });

  it('sends the words, session and time filters as search parameters', async () => {
    const f = await results();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the typing pause
    fireEvent.change(screen.getByLabelText('Search messages'), { target: { value: ' migrate ' } });
    await settle(300);
    fireEvent.change(screen.getByLabelText('Filter by session'), { target: { value: 'web' } });
    fireEvent.change(screen.getByLabelText('Filter by time'), { target: { value: '1h' } });
    await settle();
    const [op, params] = f.calls.at(-1)!;
    expect(op).toBe('history.search');
    expect(params).toMatchObject({ text: 'migrate', with: 'web', limit: 100 });
    expect(Math.abs((params.since as number) - (Date.now() - 3_600_000))).toBeLessThan(5000);
  });

  it('loads the next page with Older messages', async () => {
    const f = await results();
    fireEvent.click(screen.getByRole('button', { name: 'Older messages' }));
    await settle();
    expect(f.calls.at(-1)![1]).toMatchObject({ before: 3 });
    expect(screen.getAllByTestId('history-msg')).toHaveLength(8);
  });

  it('says why it could not load', async () => {
    const off = createStores(
      fakeBridge({
        'history.search': new BridgeError('history_off', 'History is off on this hub; history.status says why'),
      }).bridge,
    );
    render(<HistoryView stores={off} />);
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(
      'Could not load the history: history is off on this hub (Preferences → Message history says why)',
    );
  });

  it('the keyboard alone goes from a result to its conversation and back', async () => {
    const f = fakeBridge({
      'history.search': { messages: [denied, approved], next: null },
      'history.conversation': { messages: [approved, denied], next: null },
    });
    const stores = createStores(f.bridge);
    render(<HistoryView stores={stores} />);
    await settle();
    const items = screen.getAllByTestId('history-msg');
    expect(items[0]!.tabIndex).toBe(0);
    items[0]!.focus();
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement, 'ArrowDown moves down').toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'Home' });
    expect(document.activeElement, 'Home goes to the first').toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'Enter' });
    await settle();
    expect(f.calls.at(-1), 'Enter opens the conversation').toEqual([
      'history.conversation',
      { limit: 100, between: ['web', 'api'] },
    ]);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Conversation: web ↔ api');
    expect(screen.getByTestId('conversation')).toBeTruthy();
    expect(screen.queryByLabelText('Filter by session')).toBeNull(); // a pair needs no session filter
    fireEvent.keyDown(screen.getAllByTestId('history-msg')[0]!, { key: 'Escape' });
    await settle();
    expect(f.calls.at(-1)![0], 'Escape goes back').toBe('history.search');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('History');
  });

  /** The History view with the team conversation of crew opened from the team filter. */
  const teamConversation = async () => {
    const f = fakeBridge({
      'history.search': { messages: [], next: null },
      'history.conversation': { messages: [delivered], next: null },
      'teams.list': { root: '/c', teams: [{ name: 'crew', members: 2, createdAt: 0 }] },
      'teams.show': null,
      'tasks.list': { tasks: [] },
    });
    const stores = createStores(f.bridge);
    await stores.teams.getState().load();
    render(<HistoryView stores={stores} />);
    await settle();
    fireEvent.change(screen.getByLabelText('Team conversation'), { target: { value: 'crew' } });
    await settle();
    return f;
  };

  it('opens a team conversation from the team filter', async () => {
    const f = await teamConversation();
    expect(f.calls.at(-1)).toEqual(['history.conversation', { limit: 100, team: 'crew' }]);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Team conversation: crew');
  });

  it('an open team conversation reloads once for a burst of new activity', async () => {
    const f = await teamConversation();
    const before = f.calls.length;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the live reload's coalescing window
    act(() =>
      f.emit({
        type: 'activity',
        entry: { at: 0, kind: 'receipt', status: 'delivered', sender: 'a', receiver: 'b', msgId: 'm', reason: '' },
      }),
    );
    act(() =>
      f.emit({
        type: 'activity',
        entry: { at: 0, kind: 'receipt', status: 'delivered', sender: 'a', receiver: 'b', msgId: 'm', reason: '' },
      }),
    );
    await settle(1600);
    expect(f.calls.slice(before).filter(([op]) => op === 'history.conversation')).toHaveLength(1); // coalesced
  });

  it('the Teams view shows an inbox it cannot read as unreadable, with why, never as 0', async () => {
    const f = fakeBridge({
      'sessions.list': { rows: [] },
      'held.list': { items: [] },
      'activity.list': { entries: [], notices: [] },
      'settings.effective': { effective: {}, problems: [], paused: false },
      'confirmations.list': { items: [] },
      'setup.detect': { agents: [] },
      'teams.list': { root: '/c', teams: [{ name: 'crew', members: 2, createdAt: 0 }] },
      'teams.show': {
        config: { name: 'crew', members: [{ name: 'lead' }, { name: 'worker' }] },
        inboxes: [
          { member: 'lead', depth: 2, unread: 2 },
          { member: 'worker', depth: 0, unread: 0, problem: 'not valid JSON' },
        ],
      },
      'tasks.list': { tasks: [] },
    });
    const stores = createStores(f.bridge);
    render(<App stores={stores} />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Teams' }));
    await settle();
    const roster = screen.getAllByRole('listitem').filter((li) => li.closest('.roster') !== null);
    expect(roster.map((li) => li.textContent?.replace(/\s+/g, ' '))).toEqual(['lead 2', 'worker unreadable']);
    expect(screen.getByText('unreadable').getAttribute('title')).toBe('inbox unreadable: not valid JSON');
  });

  it('the Teams view opens its team conversation', async () => {
    const f = fakeBridge({
      'sessions.list': { rows: [] },
      'held.list': { items: [] },
      'subscriptions.list': { items: [] },
      'activity.list': { entries: [], notices: [] },
      'settings.effective': { effective: {}, problems: [], paused: false },
      'confirmations.list': { items: [] },
      'setup.detect': { agents: [] },
      'teams.list': { root: '/c', teams: [{ name: 'crew', members: 2, createdAt: 0 }] },
      'teams.show': { config: { name: 'crew', members: [] }, inboxes: [] },
      'tasks.list': { tasks: [] },
      'history.conversation': { messages: [delivered], next: null },
      'history.search': { messages: [], next: null },
    });
    const stores = createStores(f.bridge);
    render(<App stores={stores} />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Teams' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Its conversation' }));
    await settle();
    expect(f.calls.filter(([op]) => op === 'history.conversation').at(-1)).toEqual([
      'history.conversation',
      { limit: 100, team: 'crew' },
    ]);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Team conversation: crew');
  });
});

describe('Sessions → History', () => {
  /** The app on Sessions: one row, api, with three activity entries (two messages). */
  const sessionsApp = async () => {
    const row = {
      name: 'api',
      ref: 'aaaaaa',
      label: 'api [aaaaaa]',
      address: 'uds:/x/api',
      machine: null,
      cwd: '/w',
      agent: 'claude',
      kind: 'switchboard',
      mode: 'default',
      hooks: 'reported',
      state: 'idle',
      stateSince: Date.now(),
      canReceive: true,
      self: false,
      inboxDepth: 0,
      inbound: { value: null, source: 'parity' },
    };
    const entries = [
      {
        at: Date.now() - 1000,
        kind: 'decision',
        status: 'deliver',
        sender: 'api',
        receiver: 'web',
        msgId: 'a',
        reason: '',
      },
      {
        at: Date.now() - 2000,
        kind: 'receipt',
        status: 'delivered',
        sender: 'api',
        receiver: 'web',
        msgId: 'a',
        reason: '',
      },
      {
        at: Date.now() - 5 * 60_000,
        kind: 'decision',
        status: 'hold',
        sender: 'web',
        receiver: 'api',
        msgId: 'b',
        reason: '',
      },
    ];
    const f = fakeBridge({
      'sessions.list': { rows: [row] },
      'held.list': { items: [] },
      'subscriptions.list': { items: [] },
      'activity.list': { entries, notices: [] },
      'settings.effective': { effective: {}, problems: [], paused: false },
      'teams.list': { root: '/c', teams: [] },
      'confirmations.list': { items: [] },
      'history.search': { messages: [approved], next: null },
    });
    render(<App stores={createStores(f.bridge)} />);
    await settle();
    return f;
  };

  it('each Sessions row draws its traffic', async () => {
    await sessionsApp();
    const spark = screen.getByTestId('sparkline');
    expect(spark.dataset.total).toBe('2'); // two messages (decisions), the receipt is not a second one
    expect(spark.getAttribute('aria-label')).toBe('api: 2 messages in the last 30 minutes');
  });

  it('a Sessions row opens that session’s history', async () => {
    const f = await sessionsApp();
    fireEvent.click(screen.getByRole('button', { name: 'api [aaaaaa]' }));
    fireEvent.click(screen.getByRole('button', { name: 'Open its history' }));
    await settle();
    expect(f.calls.filter(([op]) => op === 'history.search').at(-1)).toEqual([
      'history.search',
      { limit: 100, with: 'api' },
    ]);
    expect(screen.getByRole('button', { name: 'History' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByLabelText<HTMLInputElement>('Filter by session').value).toBe('api');
    expect(screen.getAllByTestId('history-msg')).toHaveLength(1);
  });

  // A message's decision, receipts and drops share its id; buckets run oldest (left) to newest.
  it('counts each message once per bucket, inside the window only', () => {
    const now = 1_000_000_000;
    const e = (
      msgId: string,
      at: number,
      sender: string,
      receiver: string,
      kind: 'decision' | 'receipt' = 'decision',
      status = 'deliver',
    ) => ({
      at,
      kind,
      status,
      sender,
      receiver,
      msgId,
      reason: '',
    });
    const t = traffic(
      [
        e('1', now - 10, 'a', 'b'),
        e('1', now - 5, 'a', 'b', 'receipt', 'delivered'),
        e('2', now - 10, 'a', 'c'),
        e('3', now - 29 * 60_000, 'b', 'a'),
        e('4', now - 31 * 60_000, 'a', 'b'),
        e('5', now - 5, 'a', 'stock', 'receipt', 'sent'),
        e('6', now - 3, 'a', 'b', 'receipt', 'dropped'),
      ],
      now,
    );
    expect(
      t.get('a')!.reduce((x, y) => x + y, 0),
      'once per message, none outside the window',
    ).toBe(5);
    expect(t.get('a')![14], 'the newest bucket is the last').toBe(4);
    expect(t.get('a')![0], 'the oldest bucket is the first').toBe(1);
    expect(t.get('b')!.reduce((x, y) => x + y, 0)).toBe(3);
  });
});

describe('deleting history', () => {
  /** History preferences over a history of three messages that history.delete empties. */
  const prefs = async () => {
    let messages = 3;
    const status = () => ({
      enabled: true,
      reason: null,
      file: '/h/.switchboard/history.sqlite',
      queued: 0,
      written: 9,
      gap: { records: 0, since: null },
      lastError: null,
      writeMs: 1,
      messages,
      events: 4,
      bytes: 3 * 1024 * 1024,
      retention: { days: 30, maxMegabytes: 512 },
    });
    const f = fakeBridge({
      'history.status': status,
      'history.delete': () => ((messages = 0), { deleted: 3 }),
      'history.search': { messages: [], next: null },
    });
    render(<HistoryPrefs stores={createStores(f.bridge)} />);
    await settle();
    return { f, status };
  };

  it('Preferences say what the history keeps', async () => {
    await prefs();
    expect(screen.getByTestId('history-prefs').textContent).toContain('3 messages kept, 3.0 MB');
  });

  it('Preferences delete all history only after a second click', async () => {
    const { f } = await prefs();
    fireEvent.click(screen.getByRole('button', { name: 'Delete all history…' }));
    expect(f.calls.some(([op]) => op === 'history.delete')).toBe(false); // one click only asks
    fireEvent.click(screen.getByRole('button', { name: 'Delete 3 messages for good' }));
    await settle();
    expect(f.calls.find(([op]) => op === 'history.delete')).toEqual(['history.delete', { all: true }]);
    expect(screen.getByRole('status').textContent).toBe('Deleted 3 messages from the history.');
    expect(screen.getByRole('button', { name: 'Delete all history…' }).hasAttribute('disabled')).toBe(true);
  });

  it('Preferences say why history is off', async () => {
    const { status } = await prefs();
    cleanup();
    const off = createStores(
      fakeBridge({
        'history.status': { ...status(), enabled: false, reason: 'this runtime (Node 20.0.0) has no node:sqlite' },
      }).bridge,
    );
    render(<HistoryPrefs stores={off} />);
    await settle();
    expect(screen.getByTestId('history-prefs').textContent).toContain(
      'History is off: this runtime (Node 20.0.0) has no node:sqlite.',
    );
  });

  it('a conversation deletes itself (both directions) after a second click, then shows it is empty', async () => {
    let conv = [approved, denied];
    const f = fakeBridge({
      'history.search': { messages: [], next: null },
      'history.conversation': () => ({ messages: conv, next: null }),
      'history.delete': () => ((conv = []), { deleted: 2 }),
    });
    const stores = createStores(f.bridge);
    render(<HistoryView stores={stores} />);
    await act(() => stores.history.getState().open({ kind: 'pair', a: 'api', b: 'web' }));
    expect(screen.getAllByTestId('history-msg')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Delete this conversation…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete it for good' }));
    await settle();
    expect(f.calls.find(([op]) => op === 'history.delete')).toEqual(['history.delete', { between: ['api', 'web'] }]);
    expect(screen.getByTestId('history-empty').textContent).toContain('No messages in this conversation yet');
  });
});

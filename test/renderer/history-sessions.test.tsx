// @vitest-environment happy-dom
// History reached from elsewhere, with a fake bridge: a Sessions row opens
// its history and draws its traffic, and history is deleted from
// Preferences and from a conversation.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStores } from '../../renderer/stores/stores.js';
import { App } from '../../renderer/app.js';
import { HistoryView } from '../../renderer/features/history.js';
import { HistoryPrefs } from '../../renderer/features/history-prefs.js';
import { traffic } from '../../renderer/ui/sparkline.js';
import { fakeBridge } from '../fakes/bridge.js';
import { approved, denied, settle } from './history-fixtures.js';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  location.hash = ''; // the shell opens the view named in the hash
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

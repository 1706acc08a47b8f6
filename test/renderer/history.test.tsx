// @vitest-environment happy-dom
// The History view with a fake bridge: the empty state, search results with
// their outcome paths, filters sent as history parameters, and keyboard
// navigation into a pair's conversation and back (a Sessions row and
// deleting: history-sessions.test.tsx; the messages: history-fixtures.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { BridgeError } from '../../renderer/bridge/bridge.js';
import { createStores } from '../../renderer/stores/stores.js';
import { App } from '../../renderer/app.js';
import { HistoryView } from '../../renderer/features/history.js';
import { bodyOf, outcomePath } from '../../renderer/features/history-message.js';
import { fakeBridge } from '../fakes/bridge.js';
import { approved, delivered, denied, dropped, settle } from './history-fixtures.js';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  location.hash = ''; // the shell opens the view named in the hash
});

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

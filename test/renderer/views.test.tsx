// @vitest-environment happy-dom
// Each view's states with a fake bridge: empty, loading, many items, error,
// expiring item; and that Deny is the default in Approvals.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createStores } from '../../renderer/stores/stores.js';
import { App } from '../../renderer/app.js';
import { ApprovalsView } from '../../renderer/features/approvals.js';
import { SessionsView } from '../../renderer/features/sessions.js';
import { SubscriptionsView } from '../../renderer/features/subscriptions.js';
import { RelayPrefs } from '../../renderer/features/relay-prefs.js';
import type { HeldView } from '../../core/protocol/methods.js';
import { fakeBridge } from '../fakes/bridge.js';

afterEach(cleanup);

const held = (i: number, expiresAt: number | null): HeldView => ({
  id: `m${i}`,
  sender: {
    name: 'careful',
    address: 'uds:/r/a.sock',
    sessionId: 's1',
    verified: true,
    agent: 'claude',
    mode: 'default',
    cwd: '/home/dev/web',
    machine: null,
  },
  receiver: { sessionId: 's2', name: 'yolo', label: 'yolo [abc123]' },
  reason: 'this session bypasses permission prompts and the sender does not (mode parity)',
  preview: `message ${i}`,
  text: `message ${i} in full`,
  summary: 'sum',
  heldAt: 0,
  expiresAt,
});

async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}

describe('Sessions view', () => {
  /** The view over 50 sessions (s0 of unknown mode, s1 with silent hooks), before they load. */
  const fifty = () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      name: `s${i}`,
      ref: 'aaaaaa',
      label: `s${i} [aaaaaa]`,
      address: `uds:/x/${i}`,
      machine: null,
      cwd: `/w/${i}`,
      agent: 'claude',
      kind: 'switchboard',
      mode: i === 0 ? 'unknown' : 'default',
      hooks: i === 1 ? 'never' : 'reported',
      state: i % 2 ? 'busy' : 'idle',
      stateSince: Date.now(),
      canReceive: true,
      self: false,
      inboxDepth: i,
      inbound: { value: null, source: 'parity' },
    }));
    const f = fakeBridge({ 'sessions.list': { rows } });
    const stores = createStores(f.bridge);
    render(<SessionsView stores={stores} />);
    return () => act(() => stores.sessions.getState().load());
  };

  it('says it is loading until the list arrives', () => {
    fifty();
    expect(screen.getByText('Loading…')).toBeTruthy();
  });

  it('draws a row per session, marking an unknown mode and silent hooks', async () => {
    await fifty()();
    expect(screen.getAllByRole('row')).toHaveLength(51);
    // A session whose agent did not say its mode is marked so (it fails closed).
    expect(screen.getAllByText('mode unknown')).toHaveLength(1);
    expect(screen.getAllByText('hooks not running')).toHaveLength(1);
  });

  it('filters the rows by name', async () => {
    await fifty()();
    fireEvent.change(screen.getByLabelText('Filter sessions'), { target: { value: 's4' } });
    expect(screen.getAllByRole('row')).toHaveLength(12); // s4, s40–s49 + header
  });

  it('marks a stock Claude Code session and offers no send-as-user for it', async () => {
    const row = {
      name: 'myapp-3f',
      ref: 'c27324',
      label: 'myapp-3f [c27324]',
      address: 'uds:/run/cc-socks/1.sock',
      machine: null,
      cwd: '/w',
      agent: 'claude',
      kind: 'claude-code',
      state: 'busy',
      stateSince: Date.now(),
      canReceive: true,
      self: false,
      inboxDepth: 0,
      inbound: { value: null, source: 'its own Claude Code settings' },
    };
    const stores = createStores(
      fakeBridge({ 'sessions.list': { rows: [row] }, 'activity.list': { entries: [], notices: [] } }).bridge,
    );
    render(<SessionsView stores={stores} />);
    await act(() => stores.sessions.getState().load());
    expect(screen.getByText('own messaging')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'myapp-3f [c27324]' }));
    expect(screen.getByTestId('stock-note').textContent).toContain('type in its terminal');
    expect(screen.queryByRole('button', { name: 'Send as the user' })).toBeNull();
  });

  it('marks a Qwen Code session and offers no send-as-user for it', async () => {
    const row = {
      name: 'proj-67',
      ref: 'a1b2c3',
      label: 'proj-67 [a1b2c3]',
      address: 'uds:/run/qwen-socks/7.sock',
      machine: null,
      cwd: '/w',
      agent: 'qwen',
      kind: 'qwen-code',
      mode: null,
      hooks: null,
      state: 'idle',
      stateSince: Date.now(),
      canReceive: true,
      self: false,
      inboxDepth: 0,
      inbound: { value: null, source: 'its own Qwen Code settings' },
    };
    const stores = createStores(
      fakeBridge({ 'sessions.list': { rows: [row] }, 'activity.list': { entries: [], notices: [] } }).bridge,
    );
    render(<SessionsView stores={stores} />);
    await act(() => stores.sessions.getState().load());
    expect(screen.getByText('Qwen Code')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'proj-67 [a1b2c3]' }));
    expect(screen.getByTestId('stock-note').textContent).toContain('A Qwen Code session with its own');
    expect(screen.queryByRole('button', { name: 'Send as the user' })).toBeNull();
  });

  it('explains the empty state and shows errors', async () => {
    const empty = createStores(fakeBridge({ 'sessions.list': { rows: [] } }).bridge);
    render(<SessionsView stores={empty} />);
    await act(() => empty.sessions.getState().load());
    expect(screen.getByText(/No live sessions/)).toBeTruthy();
    cleanup();
    const failing = createStores(fakeBridge({ 'sessions.list': new Error('hub unreachable') }).bridge);
    render(<SessionsView stores={failing} />);
    await act(() => failing.sessions.getState().load());
    expect(screen.getByRole('alert').textContent).toContain('hub unreachable');
  });
});

describe('Approvals view', () => {
  /** The view with one held message that expires in 65 s. */
  const expiring = async () => {
    const f = fakeBridge({
      'held.list': { items: [held(1, Date.now() + 65_000)] },
      'held.decide': { results: [{ id: 'm1', status: 'denied' }] },
    });
    const stores = createStores(f.bridge);
    render(<ApprovalsView stores={stores} />);
    await act(() => stores.held.getState().load());
    await settle();
    return f;
  };

  it('counts down an expiring item', async () => {
    await expiring();
    expect(screen.getByTestId('countdown').textContent).toMatch(/^1:0[45] left$/);
  });

  it('the keyboard can deny a held message but never approve it', async () => {
    const f = await expiring();
    const deny = screen.getByRole('button', { name: 'Deny' });
    expect(document.activeElement, 'Deny has focus').toBe(deny);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Approve' }), { key: 'Enter' });
    expect(
      f.calls.filter(([op]) => op === 'held.decide'),
      'Enter never approves',
    ).toHaveLength(0);
    fireEvent.keyDown(screen.getByTestId('held-item'), { key: 'Escape' });
    await settle();
    expect(f.calls.filter(([op]) => op === 'held.decide')).toEqual([['held.decide', { ids: ['m1'], approve: false }]]);
    // The decided card stays where it was and says what happened.
    expect(screen.getByTestId('held-decided').textContent).toContain('Denied ✓');
  });

  it('focuses the oldest card, whichever sender comes last', async () => {
    const other = (i: number, heldAt: number): HeldView => ({
      ...held(i, null),
      heldAt,
      sender: { ...held(i, null).sender, name: `s${i}`, address: `uds:/r/${i}.sock` },
    });
    const stores = createStores(
      fakeBridge({ 'held.list': { items: [other(3, 30), other(1, 10), other(2, 20)] } }).bridge,
    );
    render(<ApprovalsView stores={stores} />);
    await act(() => stores.held.getState().load());
    await settle();
    const cards = screen.getAllByTestId('held-item');
    expect(cards.map((c) => c.dataset.id)).toEqual(['m1', 'm2', 'm3']);
    expect(document.activeElement).toBe(within(cards[0]!).getByRole('button', { name: 'Deny' }));
  });

  it('keeps the hub’s order for messages held in the same millisecond (their ids are random)', async () => {
    const same = (id: string, n: number): HeldView => ({ ...held(n, null), id, preview: `p${n}`, summary: `s${n}` });
    const stores = createStores(
      fakeBridge({ 'held.list': { items: [same('zz', 1), same('aa', 2), same('mm', 3)] } }).bridge,
    );
    render(<ApprovalsView stores={stores} />);
    await act(() => stores.held.getState().load());
    await settle();
    expect(screen.getAllByTestId('held-item').map((c) => c.dataset.id)).toEqual(['zz', 'aa', 'mm']);
  });

  it('approve all from a sender asks once, then decides them all in one request', async () => {
    const f = fakeBridge({
      'held.list': { items: [held(1, null), held(2, null), held(3, null)] },
      'held.decide': {
        results: [
          { id: 'm1', status: 'queued' },
          { id: 'm2', status: 'queued' },
          { id: 'm3', status: 'gone' },
        ],
      },
    });
    const stores = createStores(f.bridge);
    render(<ApprovalsView stores={stores} />);
    await act(() => stores.held.getState().load());
    fireEvent.click(screen.getAllByRole('button', { name: 'Approve all 3 from careful…' })[0]!);
    const dialog = screen.getByTestId('confirm-all');
    expect(dialog.textContent, 'asks with the count').toContain('Approve all 3 from careful?');
    expect(within(dialog).getAllByRole('listitem'), 'asks with the first lines').toHaveLength(3);
    expect(f.calls.filter(([op]) => op === 'held.decide')).toHaveLength(0); // nothing decided before the answer
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve all 3' }));
    await settle();
    expect(
      f.calls.filter(([op]) => op === 'held.decide'),
      'one request decides them all',
    ).toEqual([['held.decide', { ids: ['m1', 'm2', 'm3'], approve: true }]]);
    expect(screen.getByTestId('decide-report').textContent, 'says what happened').toBe(
      'Approved 2 from careful; 1 had already been decided or expired.',
    );
  });

  it('says when nothing waits', async () => {
    const empty = createStores(fakeBridge({ 'held.list': { items: [] } }).bridge);
    render(<ApprovalsView stores={empty} />);
    await act(() => empty.held.getState().load());
    expect(screen.getByText(/Nothing waits for you/)).toBeTruthy();
  });
});

describe('cross-machine confirmations', () => {
  /** The Approvals view with one waiting send over a connected relay that stores mail. */
  const waitingSend = async () => {
    const item = {
      id: 'c1',
      sender: { sessionId: 's1', name: 'alice' },
      target: { machine: 'buildbox', session: 'bob [abc123] on buildbox' },
      preview: 'deploy now',
      text: 'deploy now',
      createdAt: Date.now(),
      expiresAt: Date.now() + 90_000,
    };
    const f = fakeBridge({
      'held.list': { items: [] },
      'confirmations.list': {
        items: [item],
        relay: { configured: true, connected: true, machine: 'laptop', mode: 'store' },
      },
      'confirmations.deny': { decided: true },
    });
    const stores = createStores(f.bridge);
    render(<ApprovalsView stores={stores} />);
    await act(() => stores.confirmations.getState().load());
    return f;
  };

  it('show the relay state and each waiting send', async () => {
    await waitingSend();
    const section = screen.getByTestId('confirmations');
    expect(section.textContent).toContain('connected as laptop');
    expect(section.textContent).toContain('mail for a machine that is away is stored until it is back');
    expect(screen.getByTestId('confirmation-item').textContent).toContain('deploy now');
    expect(screen.getByTestId('confirmation-item').textContent).toMatch(/1:(29|30) left/);
  });

  it('the keyboard can deny a waiting send but never allow it', async () => {
    const f = await waitingSend();
    const deny = screen.getByRole('button', { name: 'Deny' });
    expect(document.activeElement, 'Deny has focus').toBe(deny);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Allow once' }), { key: 'Enter' });
    expect(
      f.calls.some(([op]) => op === 'confirmations.allow'),
      'Enter never allows',
    ).toBe(false);
    fireEvent.keyDown(screen.getByTestId('confirmation-item'), { key: 'Escape' });
    await settle();
    expect(
      f.calls.filter(([op]) => op === 'confirmations.deny'),
      'Esc denies',
    ).toEqual([['confirmations.deny', { id: 'c1' }]]);
  });
});

describe('relay preferences', () => {
  /** Relay preferences from the user's file, connection down; `saved` collects what it saves. */
  const userRelay = async () => {
    const f = fakeBridge({
      'confirmations.list': { items: [], relay: { configured: true, connected: false, machine: 'laptop' } },
      'settings.set': { effective: {} },
    });
    const stores = createStores(f.bridge);
    await act(() => stores.confirmations.getState().load());
    const saved: unknown[] = [];
    render(
      <RelayPrefs
        stores={stores}
        value={{ servers: ['nats://a:4222'], machine: 'laptop', token: '(set)' }}
        source="user"
        save={async (v) => {
          saved.push(v);
          return null;
        }}
      />,
    );
    return { stores, saved };
  };

  it('says whether it is connected and where credentials live', async () => {
    await userRelay();
    expect(screen.getByTestId('relay').textContent).toContain('Not connected (it retries).');
    expect(screen.getByTestId('relay').textContent).toContain('Credentials are set in the settings file.');
  });

  it('saves servers and machine only, on leaving the field', async () => {
    const { saved } = await userRelay();
    fireEvent.blur(screen.getByLabelText('relay servers')); // unchanged: nothing to save
    fireEvent.change(screen.getByLabelText('relay servers'), { target: { value: 'nats://a:4222, tls://b:4222' } });
    fireEvent.blur(screen.getByLabelText('relay servers')); // saved on leaving the field: no Save button
    await settle();
    expect(saved).toEqual([{ servers: ['nats://a:4222', 'tls://b:4222'], machine: 'laptop' }]);
    expect(screen.queryByRole('button', { name: /Save/ })).toBeNull();
    expect(screen.getByTestId('relay').textContent).toContain('Saved');
  });

  it('locks under managed settings', async () => {
    const { stores } = await userRelay();
    cleanup();
    render(
      <RelayPrefs stores={stores} value={{ servers: ['nats://a:4222'] }} source="managed" save={async () => null} />,
    );
    expect(screen.getByLabelText<HTMLInputElement>('relay servers').disabled).toBe(true);
    expect(screen.getByTestId('relay').textContent).toContain('Managed settings decide the relay here.');
  });
});

describe('stores and app', () => {
  it('reload the matching store on a hub event and show the held count in the navigation', async () => {
    let items = [held(1, null)];
    const f = fakeBridge({
      'held.list': () => ({ items }),
      'sessions.list': { rows: [] },
      'subscriptions.list': { items: [] },
      'activity.list': { entries: [], notices: [] },
      'settings.effective': { effective: {}, problems: [] },
      'teams.list': { root: '/c', teams: [] },
    });
    const stores = createStores(f.bridge);
    render(<App stores={stores} />);
    await settle();
    expect(screen.getByRole('button', { name: /Approvals\s*1/ })).toBeTruthy();
    items = [held(1, null), held(2, null)];
    act(() => f.emit({ type: 'held.changed', count: 2 }));
    await settle();
    expect(screen.getByRole('button', { name: /Approvals\s*2/ })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Connected');
  });

  it('subscriptions: loading state stays until the bridge answers', async () => {
    const stores = createStores(fakeBridge({ 'subscriptions.list': 'pending' }).bridge);
    render(<SubscriptionsView stores={stores} />);
    void stores.subscriptions.getState().load();
    await settle();
    expect(screen.getByText('Loading…')).toBeTruthy();
  });
});

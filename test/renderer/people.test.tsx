// @vitest-environment happy-dom
/// <reference types="node" />
// The "UI for people" states: a session's permission mode and class and what
// mode parity means for it; status pills that look alike; Preferences in
// plain words with units; the first-run page (detect → dry-run preview →
// apply → waiting); empty states; keyboard navigation between views.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs'; // vitest stubs CSS imports (even ?raw), so the stylesheet is read from disk
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createStores } from '../../renderer/stores/stores.js';
import { App } from '../../renderer/app.js';
import { ActivityView } from '../../renderer/features/activity.js';
import { PreferencesView } from '../../renderer/features/preferences.js';
import { SessionsView } from '../../renderer/features/sessions.js';
import type { AgentRow } from '../../core/protocol/methods.js';
import INDEX_HTML from '../../renderer/index.html?raw';
import { fakeBridge } from '../fakes/bridge.js';

afterEach(() => {
  cleanup();
  document.head.querySelectorAll('style').forEach((s) => s.remove());
});

async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}

const row = (name: string, extra: Partial<AgentRow> & Record<string, unknown>): AgentRow => ({
  name,
  ref: 'abc123',
  label: `${name} [abc123]`,
  address: `uds:/r/${name}.sock`,
  machine: null,
  cwd: `/w/${name}`,
  agent: 'claude',
  kind: 'switchboard',
  state: 'idle',
  stateSince: Date.now(),
  canReceive: true,
  self: false,
  inboxDepth: 0,
  inbound: { value: null, source: 'parity' },
  mode: null,
  hooks: null,
  ...extra,
});

describe('Sessions: permission mode, class and inbound meaning', () => {
  it('marks a bypass session and says what mode parity does for each session', async () => {
    const rows = [
      row('careful', { mode: 'default', modeClass: 'prompting' }),
      row('yolo', { mode: 'bypassPermissions', modeClass: 'bypass' }),
      row('mystery', { mode: 'unknown', modeClass: 'unknown' }),
      row('legacy', { mode: 'unknown', modeClass: 'unknown' }),
      row('strict', { mode: 'acceptEdits', modeClass: 'prompting', inbound: { value: 'hold', source: 'user' } }),
      row('plain', { mode: 'unknown', modeClass: 'unknown', modeSource: null }),
      row('hooked', { mode: 'auto', modeClass: 'prompting', modeSource: 'hook' }),
    ];
    const stores = createStores(fakeBridge({ 'sessions.list': { rows } }).bridge);
    render(<SessionsView stores={stores} />);
    await act(() => stores.sessions.getState().load());
    const cell = (name: string, id: string) => within(screen.getByTestId(`session-${name}`)).getByTestId(id);
    expect(cell('careful', 'mode').textContent).toBe('prompting default (asks)');
    expect(cell('careful', 'inbound').textContent).toBe('holds messages from bypass sessions');
    expect(cell('yolo', 'mode').textContent).toBe('bypass bypass permissions');
    expect(cell('yolo', 'inbound').textContent).toBe('holds messages from prompting sessions');
    expect(screen.getByTestId('session-yolo').className).toContain('bypass-row');
    expect(screen.getByTestId('session-careful').className).not.toContain('bypass-row');
    for (const n of ['mystery', 'legacy']) {
      expect(cell(n, 'mode').textContent).toBe('mode unknown');
      expect(cell(n, 'inbound').textContent).toBe('holds messages from prompting sessions');
    }
    expect(cell('strict', 'inbound').textContent).toBe('holds every message for you');
    // Where the mode came from: a plain `claude` before its first prompt, and after it.
    expect(cell('plain', 'mode').textContent).toBe('mode unknown not told yet');
    expect(cell('hooked', 'mode').textContent).toBe('prompting auto from its hooks');
    expect(cell('hooked', 'mode').title).toContain('reported the mode in its own hook input');
    expect(cell('strict', 'inbound').title).toContain('crossSessionInbound is "hold"');
    expect(screen.queryByText('mode parity')).toBeNull();
  });

  it('marks a session whose machine is away, with for how long', async () => {
    const rows = [
      row('bob', { machine: 'buildbox', address: 'peer:buildbox/b1', awaySince: Date.now() - 5 * 60_000 }),
      row('carol', { machine: 'buildbox', address: 'peer:buildbox/c1' }),
    ];
    const stores = createStores(fakeBridge({ 'sessions.list': { rows } }).bridge);
    render(<SessionsView stores={stores} />);
    await act(() => stores.sessions.getState().load());
    expect(within(screen.getByTestId('session-bob')).getByTestId('away-badge').textContent).toBe('away 5m');
    expect(within(screen.getByTestId('session-carol')).queryByTestId('away-badge')).toBeNull();
  });

  it('says when the filter matches nothing, and Escape closes a session detail back to its row', async () => {
    const stores = createStores(
      fakeBridge({
        'sessions.list': { rows: [row('careful', { mode: 'default', modeClass: 'prompting' })] },
        'activity.list': { entries: [], notices: [] },
      }).bridge,
    );
    render(<SessionsView stores={stores} />);
    await act(() => stores.sessions.getState().load());
    const name = screen.getByRole('button', { name: 'careful [abc123]' });
    fireEvent.click(name);
    expect(screen.getByTestId('session-detail')).toBeTruthy();
    fireEvent.keyDown(screen.getByLabelText(/Message from you/), { key: 'Escape' });
    expect(screen.queryByTestId('session-detail')).toBeNull();
    expect(document.activeElement).toBe(name);
    fireEvent.change(screen.getByLabelText('Filter sessions'), { target: { value: 'zzz' } });
    expect(screen.getByText(/No session matches “zzz”/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filter' }));
    expect(screen.getByRole('button', { name: 'careful [abc123]' })).toBeTruthy();
  });
});

describe('Activity status pills', () => {
  it('draws "held" as a pill like the others, not as an Approvals card', async () => {
    const style = document.createElement('style');
    style.textContent = fs.readFileSync('renderer/styles.css', 'utf8');
    document.head.append(style);
    const entry = (status: string, i: number) => ({
      at: Date.now(),
      kind: 'receipt',
      status,
      sender: 'careful',
      receiver: 'yolo',
      msgId: `m${i}`,
      reason: 'r',
    });
    const stores = createStores(
      fakeBridge({
        'activity.list': { entries: [entry('queued', 1), entry('held', 2), entry('denied', 3)], notices: [] },
      }).bridge,
    );
    render(<ActivityView stores={stores} />);
    await act(() => stores.activity.getState().load());
    const pill = (status: string) =>
      screen.getByTestId('activity').querySelector<HTMLElement>(`[data-status="${status}"]`)!;
    for (const s of ['queued', 'held', 'denied']) {
      expect([s, getComputedStyle(pill(s)).paddingTop, getComputedStyle(pill(s)).borderRadius]).toEqual([
        s,
        '1px 7px'.split(' ')[0],
        '10px',
      ]);
      expect(pill(s).className.split(' ')).not.toContain(s);
    }
    expect(getComputedStyle(pill('held')).paddingTop).toBe(getComputedStyle(pill('queued')).paddingTop);
    expect(pill('held').className).toBe('pill tone-wait');
    expect(pill('denied').className).toBe('pill tone-bad');
  });

  it('explains the empty state, and a filter that hides everything', async () => {
    const stores = createStores(fakeBridge({ 'activity.list': { entries: [], notices: [] } }).bridge);
    render(<ActivityView stores={stores} />);
    await act(() => stores.activity.getState().load());
    expect(screen.getByText(/No messages yet\. Every message between sessions shows up here/)).toBeTruthy();
    cleanup();
    const one = createStores(
      fakeBridge({
        'activity.list': {
          entries: [
            { at: Date.now(), kind: 'receipt', status: 'queued', sender: 'a', receiver: 'b', msgId: 'm', reason: '' },
          ],
          notices: [],
        },
      }).bridge,
    );
    render(<ActivityView stores={one} />);
    await act(() => one.activity.getState().load());
    fireEvent.change(screen.getByLabelText('Filter by session'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show everything' }));
    expect(screen.getAllByRole('row')).toHaveLength(2);
  });
});

const EFFECTIVE = {
  inbound: { value: null, source: 'parity' },
  dialogExpiry: { value: '5m', source: 'default' },
  isolatePeerMachines: { value: false, source: 'default' },
  publishToClaudeCode: { value: false, source: 'default' },
  idleSubscriptionMinutes: { value: 60, source: 'default' },
  relay: { value: null, source: 'default' },
  throttle: {
    value: { bucketSize: 10, refillPerSecond: 1, duplicateWindowMs: 10_000, queueFullAt: 50, foldWindowMs: 30_000 },
    source: 'default',
  },
};

describe('Preferences in plain words', () => {
  /** The Preferences table over EFFECTIVE. */
  const preferences = async () => {
    const f = fakeBridge({
      'settings.effective': { effective: EFFECTIVE, problems: [], paused: false },
      'settings.set': { effective: {} },
      'confirmations.list': { items: [], relay: { configured: false, connected: false, machine: null } },
    });
    const stores = createStores(f.bridge);
    render(<PreferencesView stores={stores} />);
    await act(() => stores.settings.getState().load());
    return { f, table: screen.getByTestId('preferences') };
  };
  const burstRow = (table: HTMLElement) => table.querySelector<HTMLElement>('tr[data-key="throttle.bucketSize"]')!;

  it('labels each setting in words, with a unit and one line of help', async () => {
    const { table } = await preferences();
    expect(table.textContent).not.toMatch(/Throttle:|bucketSize|duplicateWindowMs|crossSessionInbound/);
    const burst = burstRow(table);
    expect(burst.textContent).toContain('Messages allowed in a burst');
    expect(within(burst).getByText('messages')).toBeTruthy();
    for (const tr of table.querySelectorAll('tr'))
      expect(tr.querySelector('.hint')?.textContent?.length ?? 0, tr.dataset.key).toBeGreaterThan(20);
    expect(screen.getByLabelText('Messages from other sessions')).toBeTruthy();
  });

  it('keeps the raw settings key in a tooltip', async () => {
    const { table } = await preferences();
    expect(within(burstRow(table)).getByRole('rowheader').title).toBe('Settings key: throttle.bucketSize');
  });

  it('edits milliseconds as seconds', async () => {
    const { f, table } = await preferences();
    const dup = screen.getByLabelText<HTMLInputElement>('Ignore an identical repeat for');
    expect(dup.value).toBe('10');
    expect(dup.getAttribute('aria-describedby')).toBe(
      'help-throttle-duplicateWindowMs status-throttle-duplicateWindowMs',
    );
    expect(table.querySelector('tr[data-key="throttle.duplicateWindowMs"]')!.textContent).toContain('seconds');
    fireEvent.change(dup, { target: { value: '2.5' } });
    fireEvent.keyDown(dup, { key: 'Enter' });
    await settle();
    expect(f.calls.filter(([op]) => op === 'settings.set')).toEqual([
      ['settings.set', { key: 'throttle', value: { duplicateWindowMs: 2500 } }],
    ]);
  });
});

describe('first run', () => {
  it('sets up a detected agent from a dry-run preview, then waits for the first session', async () => {
    let configured = false;
    const f = fakeBridge({
      'sessions.list': { rows: [] },
      'setup.detect': () => ({
        agents: [
          { agent: 'claude-code', command: 'claude', path: '/opt/bin/claude', configured: false, problem: null },
          { agent: 'codex', command: 'codex', path: null, configured: false, problem: null },
          { agent: 'gemini', command: 'gemini', path: '/opt/bin/gemini', configured, problem: null },
        ],
      }),
      'setup.plan': { changes: [{ file: '/h/.gemini/settings.json', diff: '+ "switchboard": {…}' }] },
      'setup.apply': () => ((configured = true), { changed: ['/h/.gemini/settings.json'], backups: [] }),
    });
    const stores = createStores(f.bridge);
    render(<SessionsView stores={stores} />);
    await act(() => stores.sessions.getState().load());
    await settle();
    expect(screen.getByTestId('detected-claude-code').textContent, 'detects the agents').toContain(
      'found at /opt/bin/claude',
    );
    expect(screen.getByTestId('detected-codex').textContent).toContain('not found (no codex on the hub');
    expect(screen.queryByRole('button', { name: /Codex/ })).toBeNull();
    expect(screen.queryByTestId('waiting')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Set up Gemini CLI…' }));
    await settle();
    expect(screen.getByTestId('setup-preview').textContent, 'previews the setup').toContain(
      'Dry run: nothing is written until you press Apply',
    );
    expect(
      f.calls.some(([op]) => op === 'setup.apply'),
      'the preview writes nothing',
    ).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await settle();
    expect(
      f.calls.filter(([op]) => op === 'setup.plan' || op === 'setup.apply'),
      'Apply applies the plan',
    ).toEqual([
      ['setup.plan', { agent: 'gemini', uninstall: false }],
      ['setup.apply', { agent: 'gemini', uninstall: false }],
    ]);
    expect(screen.getByTestId('detected-gemini').textContent).toContain('set up');
    expect(screen.getByTestId('waiting').textContent, 'then waits').toContain('Waiting for your first session');
    expect(screen.getByTestId('waiting').textContent).toContain('Gemini CLI');
  });

  it('says when no agent is installed, and shows a failed detection', async () => {
    const none = createStores(
      fakeBridge({
        'sessions.list': { rows: [] },
        'setup.detect': {
          agents: [{ agent: 'claude-code', command: 'claude', path: null, configured: false, problem: null }],
        },
      }).bridge,
    );
    render(<SessionsView stores={none} />);
    await act(() => none.sessions.getState().load());
    await settle();
    expect(screen.getByText(/No agent found/)).toBeTruthy();
    cleanup();
    const failing = createStores(
      fakeBridge({ 'sessions.list': { rows: [] }, 'setup.detect': new Error('hub unreachable') }).bridge,
    );
    render(<SessionsView stores={failing} />);
    await act(() => failing.sessions.getState().load());
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('Could not look for agents: hub unreachable');
  });
});

describe('keyboard and page', () => {
  it('moves between views by keyboard within one tab stop', async () => {
    const stores = createStores(
      fakeBridge({
        'sessions.list': { rows: [] },
        'held.list': { items: [] },
        'subscriptions.list': { items: [] },
        'activity.list': { entries: [], notices: [] },
        'settings.effective': { effective: {}, problems: [] },
        'teams.list': { root: '/c', teams: [] },
        'setup.detect': { agents: [] },
      }).bridge,
    );
    render(<App stores={stores} />);
    await settle();
    const nav = screen.getByRole('navigation', { name: 'Views' });
    const button = (name: RegExp) => within(nav).getByRole('button', { name });
    expect(button(/^Sessions/).tabIndex, 'one tab stop').toBe(0);
    expect(button(/^Approvals/).tabIndex, 'one tab stop').toBe(-1);
    fireEvent.keyDown(button(/^Sessions/), { key: 'ArrowDown' });
    await settle();
    expect(document.activeElement, 'ArrowDown moves to the next view').toBe(button(/^Approvals/));
    expect(screen.getByRole('heading', { level: 2 }).textContent).toMatch(/^Approvals/);
    fireEvent.keyDown(button(/^Approvals/), { key: 'End' });
    await settle();
    expect(screen.getByRole('heading', { level: 2 }).textContent, 'End opens the last view').toBe('Preferences');
    fireEvent.keyDown(button(/^Preferences/), { key: 'ArrowDown' });
    await settle();
    expect(document.activeElement, 'ArrowDown from the last wraps to the first').toBe(button(/^Sessions/));
  });

  it('names an inline icon, so the browser never asks the hub for /favicon.ico', () => {
    expect(INDEX_HTML).toMatch(/<link rel="icon" href="data:image\/svg\+xml,[^"]+"/);
  });
});

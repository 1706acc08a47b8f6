// The tray menu is a pure function of the hub's state; its template wiring
// and the debounce are checked with fakes.
import { describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import {
  buildTrayMenu,
  debounce,
  trayIconFile,
  trayDecision,
  trayStatus,
  type TrayAction,
  type TrayItem,
  type TrayState,
} from '../../electron/tray/menu.js';
import { toMenuTemplate } from '../../electron/tray/template.js';

const session = (
  label: string,
  state: 'busy' | 'idle',
  kind: 'switchboard' | 'claude-code' = 'switchboard',
): TrayState['sessions'][number] => ({ label, agent: 'claude', state, kind, address: `uds:/x/${label}` });
const base: TrayState = { sessions: [], held: 0, heldItems: [], confirmations: 0, paused: false, quiet: false };
const labels = (items: TrayItem[]): string[] => items.map((i) => i.label ?? `(${i.type})`);

describe('tray menu', () => {
  it('with nothing running says so and still offers every command', () => {
    const items = buildTrayMenu(base);
    expect(labels(items)).toEqual([
      '0 live sessions',
      'Sessions',
      '(separator)',
      'Held messages…',
      'Quiet (no notifications)',
      'Pause inbound (refuse all)',
      '(separator)',
      'Preferences…',
      'Quit Switchboard',
    ]);
    expect(items[1]!.submenu).toEqual([{ label: 'No live sessions', enabled: false }]);
    expect(items[0]!.enabled).toBe(false);
  });

  const busyMenu = () =>
    buildTrayMenu({
      ...base,
      sessions: [session('api [a1b]', 'busy'), session('web [c2d]', 'idle', 'claude-code')],
      held: 2,
      confirmations: 1,
    });

  it('lists each session with whether it is busy', () => {
    const items = busyMenu();
    expect(items[0]!.label).toBe('2 live sessions');
    expect(items[1]!.submenu!.map((i) => i.label)).toEqual([
      '● api [a1b] — Claude Code, busy',
      '○ web [c2d] — Claude Code (its own messaging), idle',
    ]);
  });

  it('counts held messages and waiting sends as one entry that opens Approvals', () => {
    const items = busyMenu();
    const held = items.find((i) => i.label?.startsWith('Held'))!;
    expect(held.label).toBe('Held messages (3)…');
    expect(held.action).toEqual({ kind: 'open', view: 'approvals' });
  });

  const oneHeld = () =>
    buildTrayMenu({
      ...base,
      held: 1,
      heldItems: [{ id: 'h1', sender: 'web', receiver: 'api [a1b]', preview: 'please run the migration now' }],
    }).find((i) => i.label === 'Decide from here')!.submenu![0]!;

  it('names each held message in the tray with its preview', () => {
    const one = oneHeld();
    expect(one.label).toBe('web → api [a1b]: "please run the migration now"');
  });

  it('offers Approve once, Deny or an hour-long rule for a held message in the tray', () => {
    const one = oneHeld();
    expect(one.submenu!.map((i) => i.label ?? `(${i.type})`)).toEqual([
      'Approve once',
      'Deny',
      '(separator)',
      'Allow web → api [a1b] for an hour',
      'Block web → api [a1b] for an hour',
      '(separator)',
      'Open in Approvals…',
    ]);
    const actions = one.submenu!.flatMap((i) => (i.action?.kind === 'held' ? [i.action] : []));
    expect(actions.map(trayDecision)).toEqual([
      { kind: 'approve', item: 'held', itemId: 'h1' },
      { kind: 'deny', item: 'held', itemId: 'h1' },
      { kind: 'rule', effect: 'allow', itemId: 'h1' },
      { kind: 'rule', effect: 'block', itemId: 'h1' },
    ]);
  });

  it('offers no decisions with nothing held', () => {
    expect(buildTrayMenu(base).some((i) => i.label === 'Decide from here')).toBe(false);
  });

  it('quiet is a checkbox whose action flips it', () => {
    const quiet = (s: TrayState) => buildTrayMenu(s).find((i) => i.label?.startsWith('Quiet'))!;
    expect(quiet(base)).toMatchObject({ type: 'checkbox', checked: false, action: { kind: 'quiet', quiet: true } });
    expect(quiet({ ...base, quiet: true })).toMatchObject({ checked: true, action: { kind: 'quiet', quiet: false } });
  });

  it('summarises more than twenty sessions', () => {
    const many = Array.from({ length: 25 }, (_, i) => session(`s${i}`, 'idle'));
    const sub = buildTrayMenu({ ...base, sessions: many })[1]!.submenu!;
    expect(sub).toHaveLength(21);
    expect(sub[20]!.label).toBe('… and 5 more');
  });

  it('pause is a checkbox whose action flips the current state', () => {
    const off = buildTrayMenu(base).find((i) => i.label?.startsWith('Pause'))!;
    expect(off).toMatchObject({ type: 'checkbox', checked: false, action: { kind: 'pause', paused: true } });
    const onItems = buildTrayMenu({ ...base, paused: true });
    expect(onItems.find((i) => i.label?.startsWith('Pause'))).toMatchObject({
      checked: true,
      action: { kind: 'pause', paused: false },
    });
    expect(onItems[0]!.label).toBe('0 live sessions — inbound paused');
  });

  it('the icon turns to its alert variant while something waits, a template image on macOS', () => {
    expect(trayIconFile(base, 'darwin')).toBe('trayTemplate.png');
    expect(trayIconFile({ ...base, held: 1 }, 'darwin')).toBe('trayAlertTemplate.png');
    expect(trayIconFile({ ...base, confirmations: 2 }, 'linux')).toBe('trayAlert.png');
    expect(trayIconFile(base, 'win32')).toBe('tray.png');
  });

  it('every icon file is in the build', () => {
    for (const f of [
      'tray.png',
      'trayTemplate.png',
      'trayTemplate@2x.png',
      'trayAlert.png',
      'trayAlertTemplate.png',
      'trayAlertTemplate@2x.png',
    ])
      expect(fs.existsSync(new URL(`../../build/icons/${f}`, import.meta.url))).toBe(true);
  });

  it('status: tooltip and badge', () => {
    expect(trayStatus(base)).toEqual({ tooltip: 'Switchboard — 0 sessions', badge: '' });
    expect(trayStatus({ ...base, sessions: [session('a', 'idle')], held: 4, paused: true })).toEqual({
      tooltip: 'Switchboard — 1 session, 4 waiting for you, inbound paused',
      badge: '4',
    });
  });

  it('the Electron template wires each item to one dispatcher', () => {
    const dispatched: TrayAction[] = [];
    const template = toMenuTemplate(buildTrayMenu({ ...base, sessions: [session('a', 'idle')] }), (a) =>
      dispatched.push(a),
    );
    const click = (label: string, items = template): void => {
      const item = items.find((i) => i.label === label)!;
      (item.click as () => void)();
    };
    click('Quit Switchboard');
    click('Preferences…');
    click('○ a — Claude Code, idle', template[1]!.submenu as typeof template);
    expect(dispatched).toEqual([
      { kind: 'quit' },
      { kind: 'open', view: 'preferences' },
      { kind: 'open', view: 'sessions' },
    ]);
    expect(template[0]).toEqual({ type: 'normal', label: '1 live session', enabled: false });
  });

  it('debounce runs once after a burst, and cancel drops a pending run', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      const d = debounce(fn, 150);
      d();
      d();
      vi.advanceTimersByTime(100);
      d();
      vi.advanceTimersByTime(149);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(1);
      d();
      d.cancel();
      vi.advanceTimersByTime(500);
      expect(fn).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

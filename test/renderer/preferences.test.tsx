// @vitest-environment happy-dom
// Preferences' one save model (renderer/features/pref-controls.tsx): every
// setting is saved when its edit is committed, with no Save button; what
// happened shows beside the field; a number out of the hub's bounds stays in
// its field with the reason and is never sent; the hub's own refusal shows
// beside the field that caused it; the page names the real settings file.
// And the bounds the page checks are the hub's (core/settings/schema.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createStores } from '../../renderer/stores/stores.js';
import { PreferencesView } from '../../renderer/features/preferences.js';
import {
  checkNumber,
  PREF_FIELDS,
  THROTTLE_FIELDS,
  throttleName,
  type PrefField,
} from '../../renderer/features/pref-fields.js';
import { SETTING_SCHEMAS, ThrottleSettings } from '../../core/settings/schema.js';
import { fakeBridge, type FakeAnswer } from '../fakes/bridge.js';

afterEach(cleanup);

const EFFECTIVE = {
  inbound: { value: null, source: 'parity' },
  dialogExpiry: { value: '5m', source: 'default' },
  isolatePeerMachines: { value: false, source: 'default' },
  publishToClaudeCode: { value: false, source: 'default' },
  idleSubscriptionMinutes: { value: 60, source: 'default' },
  historyRetentionDays: { value: 30, source: 'default' },
  historyMaxMegabytes: { value: 512, source: 'default' },
  relay: { value: null, source: 'default' },
  throttle: {
    value: { bucketSize: 30, refillPerSecond: 0.5, duplicateWindowMs: 30_000, queueFullAt: 50, foldWindowMs: 60_000 },
    source: 'default',
  },
};

async function open(set: FakeAnswer = { effective: {} }, userFile = '/home/dev/.sb-state/settings.json') {
  const f = fakeBridge({
    'settings.effective': { effective: EFFECTIVE, problems: [], paused: false, pausedRefused: 0, userFile },
    'settings.set': set,
    'confirmations.list': { items: [], relay: { configured: false, connected: false, machine: null, mode: null } },
  });
  const stores = createStores(f.bridge);
  render(<PreferencesView stores={stores} />);
  await act(() => stores.settings.getState().load());
  return { f, row: (key: string) => document.querySelector<HTMLElement>(`tr[data-key="${key}"]`)! };
}

async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}

const sets = (f: { calls: Array<[string, unknown]> }) => f.calls.filter(([op]) => op === 'settings.set');

describe('Preferences: one save model', () => {
  it('saves a number on leaving its field (no Save button), saying so beside it', async () => {
    const { f, row } = await open();
    const idle = screen.getByLabelText<HTMLInputElement>('“Tell me when idle” requests last');
    fireEvent.change(idle, { target: { value: '90' } });
    expect(screen.queryByRole('button', { name: /^Save/ })).toBeNull();
    fireEvent.blur(idle);
    await settle();
    expect(sets(f)).toEqual([['settings.set', { key: 'idleSubscriptionMinutes', value: 90 }]]);
    expect(row('idleSubscriptionMinutes').querySelector('.field-status')!.textContent).toBe('Saved');
  });

  it('keeps a value out of range in its field, unsent, with the reason beside it', async () => {
    const { f, row } = await open();
    const idle = screen.getByLabelText<HTMLInputElement>('“Tell me when idle” requests last');
    fireEvent.change(idle, { target: { value: '0' } });
    fireEvent.keyDown(idle, { key: 'Enter' });
    const alert = row('idleSubscriptionMinutes').querySelector('[role="alert"]')!;
    expect(alert.textContent).toBe('Enter a whole number from 1 to 1440 minutes; 0 is out of range.');
    expect(idle.value).toBe('0');
    expect(idle.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(idle, { target: { value: 'soon' } });
    fireEvent.blur(idle);
    expect(row('idleSubscriptionMinutes').querySelector('[role="alert"]')!.textContent).toBe(
      'Enter a whole number from 1 to 1440 minutes.',
    );
    expect(sets(f)).toEqual([]);
  });

  it('Escape restores the saved value and clears the reason', async () => {
    const { row } = await open();
    const idle = screen.getByLabelText<HTMLInputElement>('“Tell me when idle” requests last');
    fireEvent.change(idle, { target: { value: '0' } });
    fireEvent.keyDown(idle, { key: 'Enter' });
    fireEvent.keyDown(idle, { key: 'Escape' });
    expect(idle.value).toBe('60');
    expect(row('idleSubscriptionMinutes').querySelector('[role="alert"]')).toBeNull();
  });

  it("shows the hub's refusal beside the field that caused it, not at the top of the page", async () => {
    const { row } = await open(new Error('Invalid params: invalid value for crossSessionInbound: not allowed here'));
    fireEvent.change(screen.getByLabelText('Messages from other sessions'), { target: { value: 'hold' } });
    await settle();
    expect(row('crossSessionInbound').querySelector('[role="alert"]')!.textContent).toBe(
      'Invalid params: invalid value for crossSessionInbound: not allowed here',
    );
    expect(within(screen.getByTestId('preferences')).getAllByRole('alert')).toHaveLength(1);
  });

  it('names the settings file the hub really writes', async () => {
    await open(undefined, '/srv/custom-state/settings.json');
    expect(screen.getByTestId('user-settings-file').textContent).toBe('/srv/custom-state/settings.json');
  });
});

describe('the bounds Preferences checks are the hub’s', () => {
  const numberFields: Array<{
    f: PrefField & { bounds: NonNullable<PrefField['bounds']> };
    accepts: (v: number) => boolean;
  }> = [
    ...[PREF_FIELDS.idleSubscriptionMinutes, PREF_FIELDS.historyRetentionDays, PREF_FIELDS.historyMaxMegabytes].map(
      (f) => ({ f, accepts: (v: number) => SETTING_SCHEMAS[f.key].safeParse(v).success }),
    ),
    ...THROTTLE_FIELDS.map((f) => ({
      f,
      accepts: (v: number) => ThrottleSettings.safeParse({ [throttleName(f)]: v }).success,
    })),
  ];
  it.each(numberFields.map((n) => [n.f.key, n] as const))('%s', (_key, { f, accepts }) => {
    const b = f.bounds;
    const step = b.integer ? 1 : b.min / 2;
    expect([accepts(b.min), accepts(b.max), accepts(b.min - step), accepts(b.max + step)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(accepts(b.min + 0.5)).toBe(!b.integer);
    const scale = f.scale ?? 1;
    expect(checkNumber(f, String(b.min / scale))).toEqual({ value: b.min });
    expect(checkNumber(f, String((b.max + step) / scale))).toHaveProperty('error');
  });
});

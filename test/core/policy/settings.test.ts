import { describe, expect, it } from 'vitest';
import { decideInbound } from '../../../core/policy/policy.js';
import { resolveSettings, type Layers, type Scope } from '../../../core/settings/effective.js';
import {
  emptyParsed,
  parseSettingsText,
  parseSettingsValue,
  type ParsedSettings,
} from '../../../core/settings/schema.js';

function layer(value: Record<string, unknown>): ParsedSettings {
  return parseSettingsValue(value, 'test.json', { strict: true });
}

function layers(spec: Partial<Record<Scope, Record<string, unknown> | 'broken'>>): Layers {
  const out: Layers = { managed: [], flag: [], user: [], project: [], local: [] };
  for (const [scope, v] of Object.entries(spec) as Array<[Scope, Record<string, unknown> | 'broken']>) {
    out[scope] = [v === 'broken' ? parseSettingsText('{ nope', `${scope}.json`, { strict: true }) : layer(v)];
  }
  return out;
}

const inb = (v: string) => ({ crossSessionInbound: v });

describe('crossSessionInbound precedence (docs/design.md#7-inbound-policy)', () => {
  // [managed, flag, user, project, local] → [effective value or null for parity, source]
  const table: Array<[Partial<Record<Scope, Record<string, unknown> | 'broken'>>, string | null, string]> = [
    [{}, null, 'parity'],
    [{ user: inb('accept') }, 'accept', 'user'],
    [{ flag: inb('accept'), user: inb('refuse') }, 'accept', 'flag'],
    [{ managed: inb('hold'), flag: inb('accept'), user: inb('accept') }, 'hold', 'managed'],
    [{ managed: inb('accept'), project: inb('refuse') }, 'refuse', 'project'],
    [{ user: inb('refuse'), project: inb('accept') }, 'refuse', 'user'],
    [{ user: inb('accept'), local: inb('hold') }, 'hold', 'local'],
    [{ user: inb('hold'), project: inb('refuse'), local: inb('hold') }, 'refuse', 'project'],
    [{ project: inb('accept') }, null, 'parity'],
    [{ user: 'broken' }, 'hold', 'user'],
    [{ managed: 'broken', user: inb('accept') }, 'hold', 'managed'],
    [{ user: inb('sometimes') }, 'hold', 'user'],
    [{ user: { crossSessionInbound: 7 } }, 'hold', 'user'],
    [{ user: inb('accept'), project: 'broken' }, 'hold', 'project'],
  ];
  it.each(table)('%j → %s from %s', (spec, value, source) => {
    const eff = resolveSettings(layers(spec)).inbound;
    expect(eff.value).toBe(value);
    expect(eff.source).toBe(source);
  });

  it('without an explicit value, project and local still tighten parity', () => {
    const eff = resolveSettings(layers({ project: inb('hold') })).inbound;
    expect(eff).toMatchObject({ value: null, floor: { value: 'hold', source: 'project' } });
    expect(decideInbound(eff, 'prompting', 'prompting', false).action).toBe('hold');
  });
});

describe('other settings', () => {
  it('isolatePeerMachines on in any scope wins over off in another', () => {
    expect(
      resolveSettings(layers({ local: { isolatePeerMachines: true }, user: { isolatePeerMachines: false } }))
        .isolatePeerMachines,
      'local on, user off',
    ).toEqual({ value: true, source: 'local' });
    expect(
      resolveSettings(layers({ user: { isolatePeerMachines: true }, project: { isolatePeerMachines: false } }))
        .isolatePeerMachines.value,
      'a repository cannot turn it off',
    ).toBe(true);
    expect(resolveSettings(layers({})).isolatePeerMachines, 'off by default').toEqual({
      value: false,
      source: 'default',
    });
    expect(
      resolveSettings(layers({ project: { isolatePeerMachines: 'yes' } })).isolatePeerMachines,
      "a repository's 'yes' counts as on",
    ).toEqual({
      value: true,
      source: 'project',
    });
  });

  it('dialogExpiry and throttle come only from managed and user', () => {
    const e = resolveSettings(
      layers({ project: { dialogExpiry: 'never', throttle: { bucketSize: 9999 } }, flag: { dialogExpiry: 'never' } }),
    );
    expect(e.dialogExpiry).toEqual({ value: '5m', source: 'default' });
    expect(e.throttle.value.bucketSize).toBe(30);
    const u = resolveSettings(
      layers({ user: { dialogExpiry: '10m', throttle: { bucketSize: 5 } }, managed: { dialogExpiry: '60s' } }),
    );
    expect(u.dialogExpiry).toEqual({ value: '60s', source: 'managed' });
    expect(u.throttle).toEqual({
      value: { duplicateWindowMs: 30_000, bucketSize: 5, refillPerSecond: 0.5, queueFullAt: 50, foldWindowMs: 60_000 },
      source: 'user',
    });
  });

  it('reports each bad key with its file and keeps the good ones', () => {
    const p = parseSettingsText(
      JSON.stringify({
        dialogExpiry: '3h',
        crossSessionInbound: 'accept',
        throttle: { bucketSize: -1 },
        colour: 'red',
      }),
      '/u/settings.json',
      { strict: true },
    );
    expect(p.values).toEqual({ crossSessionInbound: 'accept' });
    expect(p.problems.map((x) => [x.file, x.key])).toEqual([
      ['/u/settings.json', 'dialogExpiry'],
      ['/u/settings.json', 'throttle.bucketSize'],
      ['/u/settings.json', 'colour'],
    ]);
    const broken = parseSettingsText('{"crossSessionInbound": "accept",', '/u/settings.json', { strict: true });
    expect(broken.broken).toBe(true);
    expect(broken.problems[0]!.message).toMatch(/not valid JSON/);
    expect(parseSettingsText('[1]', 'x', { strict: true }).broken).toBe(true);
    expect(emptyParsed().broken).toBe(false);
  });

  it("reads only Switchboard's keys from Claude Code's settings files", () => {
    const p = parseSettingsText(
      JSON.stringify({ permissions: { allow: [] }, crossSessionInbound: 'hold', dialogExpiry: 'never' }),
      '.claude/settings.json',
      { keys: ['crossSessionInbound', 'isolatePeerMachines'], strict: false },
    );
    expect(p.values).toEqual({ crossSessionInbound: 'hold' });
    expect(p.problems).toEqual([]);
  });
});

describe('mode parity', () => {
  const parity = resolveSettings(layers({})).inbound;
  it.each([
    ['prompting', 'prompting', false, 'deliver'],
    ['prompting', 'bypass', false, 'hold'],
    ['prompting', null, false, 'deliver'],
    ['bypass', 'bypass', false, 'deliver'],
    ['bypass', 'prompting', false, 'hold'],
    ['bypass', null, false, 'hold'],
    ['bypass', null, true, 'deliver'],
    // Mode unknown fails closed: receives as bypass, sends unclassed.
    ['unknown', 'prompting', false, 'hold'],
    ['unknown', 'bypass', false, 'deliver'],
    ['unknown', null, false, 'hold'],
    ['prompting', 'unknown', false, 'deliver'],
    ['bypass', 'unknown', false, 'hold'],
    ['unknown', 'unknown', false, 'hold'],
  ] as const)('receiver %s, sender %s, own child %s → %s', (receiver, sender, own, action) => {
    const d = decideInbound(parity, receiver, sender, own);
    expect(d.action).toBe(action);
    expect(d.reason).not.toBe('');
  });

  it('an explicit value beats parity and own children', () => {
    const refuse = resolveSettings(layers({ user: inb('refuse') })).inbound;
    expect(decideInbound(refuse, 'bypass', 'bypass', true)).toEqual({
      action: 'refuse',
      reason: 'crossSessionInbound is "refuse" in user settings',
    });
  });
});

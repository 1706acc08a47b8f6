// Preferences: the user-scope settings in plain words (label, unit, one
// line of help; the raw key in a tooltip), each with the scope whose value
// wins, locked with an explanation when managed settings decide. Every
// change is saved one way (pref-controls.tsx): on commit, at once, to the
// hub's user settings file (its real path, from the hub), with what happened
// beside the field; problems found in any settings file are listed (those
// values count as "hold").
import { useState, type ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';
import { useLoadable } from '../ui/hooks.js';
import { Status } from '../ui/state.js';
import { AgentSetupPanel } from './agent-setup.js';
import { DesktopPrefs } from './desktop-prefs.js';
import { HistoryPrefs } from './history-prefs.js';
import { fieldIds, FieldStatus, NumberField, type FieldState } from './pref-controls.js';
import { PREF_FIELDS, sourceText, THROTTLE_FIELDS, throttleName, type PrefField } from './pref-fields.js';
import { RelayPrefs } from './relay-prefs.js';
import { RulesPrefs } from './rules-prefs.js';

interface Sourced<T = unknown> {
  value: T;
  source: string;
}

const EXPIRY_TEXT: Record<string, string> = {
  '60s': '1 minute',
  '5m': '5 minutes',
  '10m': '10 minutes',
  never: 'never (wait for me)',
};

function Source({ s }: { s: Sourced }): ReactNode {
  if (s.source === 'managed')
    return (
      <span className="lock" title="Your administrator's managed settings decide this; it cannot be changed here">
        managed (locked)
      </span>
    );
  return <span className="dim">{sourceText(s.source)}</span>;
}

/** One setting: its plain label and help (the raw key in the tooltip), its control and status, its source. */
function PrefRow({
  field,
  source,
  state,
  children,
}: {
  field: PrefField;
  source: Sourced | undefined;
  state: FieldState | undefined;
  children: ReactNode;
}): ReactNode {
  const helpId = fieldIds(field.key).help;
  return (
    <tr data-key={field.key}>
      <th scope="row" title={`Settings key: ${field.key}`}>
        {field.label}
        <div className="hint" id={helpId}>
          {field.help}
        </div>
      </th>
      <td className="control">
        {children}
        {field.unit && <span className="unit">{field.unit}</span>}
        <FieldStatus fieldKey={field.key} state={state} />
      </td>
      <td>{source && <Source s={source} />}</td>
    </tr>
  );
}

export function PreferencesView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.settings);
  const [states, setStates] = useState<Record<string, FieldState | undefined>>({});
  const report = (field: string, state: FieldState | undefined): void =>
    setStates((all) => ({ ...all, [field]: state }));
  const e = s.data.effective as Record<string, Sourced>;
  /** Saves `value` under the settings key `key`; `field` is whose status shows it (a throttle field's own key). */
  const set = async (key: string, value: unknown, field = key): Promise<string | null> => {
    report(field, { kind: 'saving' });
    let error: string | null = null;
    try {
      await stores.bridge.call('settings.set', { key, value });
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    report(field, error === null ? { kind: 'saved' } : { kind: 'error', text: error });
    await s.load();
    return error;
  };
  const inbound = e.inbound as Sourced<string | null> | undefined;
  const expiry = e.dialogExpiry as Sourced<string> | undefined;
  const isolate = e.isolatePeerMachines as Sourced<boolean> | undefined;
  const scope = e.crossSessionScope as Sourced<string> | undefined;
  const throttle = e.throttle as Sourced<Record<string, number>> | undefined;
  const idle = e.idleSubscriptionMinutes as Sourced<number> | undefined;
  const publish = e.publishToClaudeCode as Sourced<boolean> | undefined;
  const relay = e.relay as Sourced<{ servers: string[]; machine?: string } | null> | undefined;
  const keepDays = e.historyRetentionDays as Sourced<number> | undefined;
  const keepMb = e.historyMaxMegabytes as Sourced<number> | undefined;
  const F = PREF_FIELDS;
  const described = (f: PrefField) => ({
    'aria-label': f.label,
    'aria-describedby': `${fieldIds(f.key).help} ${fieldIds(f.key).status}`,
    'aria-invalid': states[f.key]?.kind === 'error',
  });
  const row = (f: PrefField, source: Sourced | undefined) => ({ field: f, source, state: states[f.key] });
  const numberProps = (f: PrefField, source: Sourced<number> | undefined, fallback: number) => ({
    field: f,
    value: source?.value ?? fallback,
    disabled: source?.source === 'managed',
    state: states[f.key],
    save: (v: number) => void set(f.key, v),
    report: (state: FieldState | undefined) => report(f.key, state),
  });
  return (
    <section aria-labelledby="prefs-h">
      <header className="view-head">
        <h2 id="prefs-h">Preferences</h2>
      </header>
      <Status
        loading={s.loading}
        error={s.error}
        empty={inbound === undefined}
        emptyText={<p>The hub sent no settings. Check that it is running, then reload this page.</p>}
      >
        <table className="grid prefs" data-testid="preferences">
          <tbody>
            <PrefRow {...row(F.crossSessionInbound, inbound)}>
              <select
                {...described(F.crossSessionInbound)}
                disabled={inbound?.source === 'managed'}
                value={inbound?.value ?? ''}
                onChange={(ev) => void set('crossSessionInbound', ev.target.value === '' ? null : ev.target.value)}
              >
                <option value="">Mode parity: hold messages across permission classes</option>
                <option value="accept">Accept: deliver every message</option>
                <option value="hold">Hold: every message waits for me</option>
                <option value="refuse">Refuse: turn away every message</option>
              </select>
            </PrefRow>
            <PrefRow {...row(F.dialogExpiry, expiry)}>
              <select
                {...described(F.dialogExpiry)}
                disabled={expiry?.source === 'managed'}
                value={expiry?.value ?? '5m'}
                onChange={(ev) => void set('dialogExpiry', ev.target.value)}
              >
                {Object.entries(EXPIRY_TEXT).map(([x, text]) => (
                  <option key={x} value={x}>
                    {text}
                  </option>
                ))}
              </select>
            </PrefRow>
            <PrefRow {...row(F.isolatePeerMachines, isolate)}>
              <input
                type="checkbox"
                {...described(F.isolatePeerMachines)}
                disabled={
                  isolate?.source === 'managed' ||
                  (isolate?.value === true && isolate.source !== 'user' && isolate.source !== 'default')
                }
                checked={isolate?.value ?? false}
                onChange={(ev) => void set('isolatePeerMachines', ev.target.checked ? true : null)}
              />
            </PrefRow>
            <PrefRow {...row(F.crossSessionScope, scope)}>
              <input
                type="checkbox"
                {...described(F.crossSessionScope)}
                disabled={scope?.source === 'managed'}
                checked={scope?.value === 'project'}
                onChange={(ev) => void set('crossSessionScope', ev.target.checked ? 'project' : null)}
              />
            </PrefRow>
            <PrefRow {...row(F.publishToClaudeCode, publish)}>
              <input
                type="checkbox"
                {...described(F.publishToClaudeCode)}
                disabled={publish?.source === 'managed'}
                checked={publish?.value ?? false}
                onChange={(ev) => void set('publishToClaudeCode', ev.target.checked ? true : null)}
              />
            </PrefRow>
            <PrefRow {...row(F.idleSubscriptionMinutes, idle)}>
              <NumberField {...numberProps(F.idleSubscriptionMinutes, idle, 60)} />
            </PrefRow>
            <PrefRow {...row(F.historyRetentionDays, keepDays)}>
              <NumberField {...numberProps(F.historyRetentionDays, keepDays, 30)} />
            </PrefRow>
            <PrefRow {...row(F.historyMaxMegabytes, keepMb)}>
              <NumberField {...numberProps(F.historyMaxMegabytes, keepMb, 512)} />
            </PrefRow>
            {THROTTLE_FIELDS.map((f) => (
              <PrefRow key={f.key} {...row(f, throttle)}>
                <NumberField
                  field={f}
                  value={throttle?.value[throttleName(f)] ?? 0}
                  disabled={throttle?.source === 'managed'}
                  state={states[f.key]}
                  report={(state) => report(f.key, state)}
                  save={(v) =>
                    void set(
                      'throttle',
                      { ...(throttle?.source === 'user' ? throttle.value : {}), [throttleName(f)]: v },
                      f.key,
                    )
                  }
                />
              </PrefRow>
            ))}
          </tbody>
        </table>
        <p className="dim">
          Each change is saved when you make it (a number when you press Enter or leave its field) to the hub's user
          settings,{' '}
          <code data-testid="user-settings-file">{s.data.userFile ?? 'the settings.json in its state directory'}</code>,
          and applies at once. A repository's <code>.switchboard/settings.json</code> or{' '}
          <code>.claude/settings.json</code> can only make the inbound policy stricter. Hover a setting to see its key
          in that file.
        </p>
        <RulesPrefs stores={stores} />
        <HistoryPrefs stores={stores} />
        <RelayPrefs
          stores={stores}
          value={relay?.value ?? null}
          source={relay?.source ?? 'default'}
          save={(v) => set('relay', v)}
        />
        <div className="agent-setup" data-testid="agent-setup">
          <h3>Agent setup</h3>
          <p className="dim">
            Adds the Switchboard MCP server and hooks to the agent's user configuration (with a backup), or removes
            exactly what it added. You see the change before anything is written.
          </p>
          <AgentSetupPanel stores={stores} allowRemove />
        </div>
        <DesktopPrefs stores={stores} />
        {s.data.problems.length > 0 && (
          <div className="problems" role="alert">
            <h3>Problems in settings files (those values count as “hold”)</h3>
            <ul>
              {s.data.problems.map((p, i) => (
                <li key={i}>
                  <code>{p.file}</code>
                  {p.key ? ` · ${p.key}` : ''}: {p.message}
                </li>
              ))}
            </ul>
          </div>
        )}
      </Status>
    </section>
  );
}

// Preferences: the user-scope settings in plain words (label, unit, one
// line of help; the raw key in a tooltip), each with the scope whose value
// wins, locked with an explanation when managed settings decide. Changes
// are written to the hub's user settings file and apply at once; problems
// found in any settings file are listed (those values count as "hold").
import { useEffect, useState, type ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';
import { useLoadable } from '../ui/hooks.js';
import { Status } from '../ui/state.js';
import { AgentSetupPanel } from './agent-setup.js';
import { DesktopPrefs } from './desktop-prefs.js';
import { HistoryPrefs } from './history-prefs.js';
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

/** One setting: its plain label and help (the raw key in the tooltip), its control, where its value comes from. */
function PrefRow({
  field,
  source,
  children,
}: {
  field: PrefField;
  source: Sourced | undefined;
  children: ReactNode;
}): ReactNode {
  const helpId = `help-${field.key.replace(/\W/g, '-')}`;
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
      </td>
      <td>{source && <Source s={source} />}</td>
    </tr>
  );
}

export function PreferencesView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.settings);
  const [error, setError] = useState<string | null>(null);
  const e = s.data.effective as Record<string, Sourced>;
  const set = async (key: string, value: unknown): Promise<void> => {
    setError(null);
    try {
      await stores.bridge.call('settings.set', { key, value });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
    await s.load();
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
    'aria-describedby': `help-${f.key.replace(/\W/g, '-')}`,
  });
  return (
    <section aria-labelledby="prefs-h">
      <header className="view-head">
        <h2 id="prefs-h">Preferences</h2>
      </header>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <Status
        loading={s.loading}
        error={s.error}
        empty={inbound === undefined}
        emptyText={<p>The hub sent no settings. Check that it is running, then reload this page.</p>}
      >
        <table className="grid prefs" data-testid="preferences">
          <tbody>
            <PrefRow field={F.crossSessionInbound} source={inbound}>
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
            <PrefRow field={F.dialogExpiry} source={expiry}>
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
            <PrefRow field={F.isolatePeerMachines} source={isolate}>
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
            <PrefRow field={F.crossSessionScope} source={scope}>
              <input
                type="checkbox"
                {...described(F.crossSessionScope)}
                disabled={scope?.source === 'managed'}
                checked={scope?.value === 'project'}
                onChange={(ev) => void set('crossSessionScope', ev.target.checked ? 'project' : null)}
              />
            </PrefRow>
            <PrefRow field={F.publishToClaudeCode} source={publish}>
              <input
                type="checkbox"
                {...described(F.publishToClaudeCode)}
                disabled={publish?.source === 'managed'}
                checked={publish?.value ?? false}
                onChange={(ev) => void set('publishToClaudeCode', ev.target.checked ? true : null)}
              />
            </PrefRow>
            <PrefRow field={F.idleSubscriptionMinutes} source={idle}>
              <NumberField
                field={F.idleSubscriptionMinutes}
                value={idle?.value ?? 60}
                disabled={idle?.source === 'managed'}
                onSave={(v) => void set('idleSubscriptionMinutes', v)}
              />
            </PrefRow>
            <PrefRow field={F.historyRetentionDays} source={keepDays}>
              <NumberField
                field={F.historyRetentionDays}
                value={keepDays?.value ?? 30}
                disabled={keepDays?.source === 'managed'}
                onSave={(v) => void set('historyRetentionDays', v)}
              />
            </PrefRow>
            <PrefRow field={F.historyMaxMegabytes} source={keepMb}>
              <NumberField
                field={F.historyMaxMegabytes}
                value={keepMb?.value ?? 512}
                disabled={keepMb?.source === 'managed'}
                onSave={(v) => void set('historyMaxMegabytes', v)}
              />
            </PrefRow>
            {THROTTLE_FIELDS.map((f) => (
              <PrefRow key={f.key} field={f} source={throttle}>
                <NumberField
                  field={f}
                  value={throttle?.value[throttleName(f)] ?? 0}
                  disabled={throttle?.source === 'managed'}
                  onSave={(v) =>
                    void set('throttle', {
                      ...(throttle?.source === 'user' ? throttle.value : {}),
                      [throttleName(f)]: v,
                    })
                  }
                />
              </PrefRow>
            ))}
          </tbody>
        </table>
        <p className="dim">
          Saved to the hub's user settings (<code>~/.switchboard/settings.json</code>) and applied at once. A
          repository's <code>.switchboard/settings.json</code> or <code>.claude/settings.json</code> can only make the
          inbound policy stricter. Hover a setting to see its key in that file.
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

/** A number in the field's shown unit (seconds for a millisecond setting), saved in the stored unit. */
function NumberField({
  field,
  value,
  disabled,
  onSave,
}: {
  field: PrefField;
  value: number;
  disabled: boolean;
  onSave: (v: number) => void;
}): ReactNode {
  const scale = field.scale ?? 1;
  const shown = String(value / scale);
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]); // a saved or outside change replaces the draft
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isFinite(n) && n >= 0;
  const stored = scale === 1 ? n : Math.round(n * scale); // whole milliseconds
  return (
    <span className="number-field">
      <input
        aria-label={field.label}
        aria-describedby={`help-${field.key.replace(/\W/g, '-')}`}
        inputMode="decimal"
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && valid && text !== shown) onSave(stored);
        }}
      />
      {text !== shown && (
        <button onClick={() => onSave(stored)} disabled={!valid}>
          Save
        </button>
      )}
    </span>
  );
}

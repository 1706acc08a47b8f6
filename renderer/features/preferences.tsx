// Preferences: the user-scope settings, each with the scope whose value
// wins, locked with an explanation when managed settings decide. Changes
// are written to the hub's user settings file and apply at once; problems
// found in any settings file are listed (those values count as "hold").
import { useState, type ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';
import { useLoadable } from '../ui/hooks.js';
import { Status } from '../ui/state.js';
import { DesktopPrefs } from './desktop-prefs.js';
import { RelayPrefs } from './relay-prefs.js';

interface Sourced<T = unknown> {
  value: T;
  source: string;
}

const THROTTLE_FIELDS = ['bucketSize', 'refillPerSecond', 'duplicateWindowMs', 'queueFullAt', 'foldWindowMs'] as const;

function Source({ s }: { s: Sourced }): ReactNode {
  if (s.source === 'managed') return <span className="lock" title="Your administrator's managed settings decide this; it cannot be changed here">managed (locked)</span>;
  const text = s.source === 'parity' ? 'no explicit value: mode parity' : s.source === 'default' ? 'default' : `from ${s.source} settings`;
  return <span className="dim">{text}</span>;
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
  const throttle = e.throttle as Sourced<Record<string, number>> | undefined;
  const idle = e.idleSubscriptionMinutes as Sourced<number> | undefined;
  const publish = e.publishToClaudeCode as Sourced<boolean> | undefined;
  const relay = e.relay as Sourced<{ servers: string[]; machine?: string } | null> | undefined;
  return (
    <section aria-labelledby="prefs-h">
      <header className="view-head"><h2 id="prefs-h">Preferences</h2></header>
      {error && <p className="error" role="alert">{error}</p>}
      <Status loading={s.loading} error={s.error} empty={inbound === undefined} emptyText={<p>No settings.</p>}>
        <table className="grid prefs" data-testid="preferences">
          <tbody>
            <tr>
              <th scope="row">Inbound messages (crossSessionInbound)</th>
              <td>
                <select aria-label="crossSessionInbound" disabled={inbound?.source === 'managed'} value={inbound?.value ?? ''} onChange={(ev) => void set('crossSessionInbound', ev.target.value === '' ? null : ev.target.value)}>
                  <option value="">mode parity (hold across permission classes)</option>
                  <option value="accept">accept: deliver every message</option>
                  <option value="hold">hold: every message waits for me</option>
                  <option value="refuse">refuse: pause all inbound</option>
                </select>
              </td>
              <td>{inbound && <Source s={inbound} />}</td>
            </tr>
            <tr>
              <th scope="row">Held message expiry (dialogExpiry)</th>
              <td>
                <select aria-label="dialogExpiry" disabled={expiry?.source === 'managed'} value={expiry?.value ?? '5m'} onChange={(ev) => void set('dialogExpiry', ev.target.value)}>
                  {['60s', '5m', '10m', 'never'].map((x) => <option key={x} value={x}>{x}</option>)}
                </select>
              </td>
              <td>{expiry && <Source s={expiry} />}</td>
            </tr>
            <tr>
              <th scope="row">Confirm every send to another machine (isolatePeerMachines)</th>
              <td>
                <input type="checkbox" aria-label="isolatePeerMachines" disabled={isolate?.source === 'managed' || (isolate?.value === true && isolate.source !== 'user' && isolate.source !== 'default')} checked={isolate?.value ?? false} onChange={(ev) => void set('isolatePeerMachines', ev.target.checked ? true : null)} />
              </td>
              <td>{isolate && <Source s={isolate} />}</td>
            </tr>
            <tr>
              <th scope="row">
                List my sessions in Claude Code (publishToClaudeCode)
                <div className="hint">Claude Code's own <code>/peers</code> and SendMessage then see your Switchboard sessions. Their messages arrive unverified and pass your inbound policy.</div>
              </th>
              <td>
                <input type="checkbox" aria-label="publishToClaudeCode" disabled={publish?.source === 'managed'} checked={publish?.value ?? false} onChange={(ev) => void set('publishToClaudeCode', ev.target.checked ? true : null)} />
              </td>
              <td>{publish && <Source s={publish} />}</td>
            </tr>
            <tr>
              <th scope="row">Idle subscription lifetime (minutes)</th>
              <td><NumberField label="idleSubscriptionMinutes" value={idle?.value ?? 60} disabled={idle?.source === 'managed'} onSave={(v) => void set('idleSubscriptionMinutes', v)} /></td>
              <td>{idle && <Source s={idle} />}</td>
            </tr>
            {THROTTLE_FIELDS.map((f) => (
              <tr key={f}>
                <th scope="row">Throttle: {f}</th>
                <td><NumberField label={`throttle.${f}`} value={throttle?.value[f] ?? 0} disabled={throttle?.source === 'managed'} onSave={(v) => void set('throttle', { ...(throttle?.source === 'user' ? throttle.value : {}), [f]: v })} /></td>
                <td>{throttle && <Source s={throttle} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="dim">Saved to the hub's user settings (<code>~/.switchboard/settings.json</code>) and applied at once. A repository's <code>.switchboard/settings.json</code> or <code>.claude/settings.json</code> can only make the inbound policy stricter.</p>
        <RelayPrefs stores={stores} value={relay?.value ?? null} source={relay?.source ?? 'default'} save={(v) => set('relay', v)} />
        <AgentSetup stores={stores} />
        <DesktopPrefs stores={stores} />
        {s.data.problems.length > 0 && (
          <div className="problems" role="alert">
            <h3>Problems in settings files (those values count as “hold”)</h3>
            <ul>{s.data.problems.map((p, i) => <li key={i}><code>{p.file}</code>{p.key ? ` · ${p.key}` : ''}: {p.message}</li>)}</ul>
          </div>
        )}
      </Status>
    </section>
  );
}

function NumberField({ label, value, disabled, onSave }: { label: string; value: number; disabled: boolean; onSave: (v: number) => void }): ReactNode {
  const [text, setText] = useState(String(value));
  const dirty = text !== String(value);
  return (
    <span className="number-field">
      <input aria-label={label} inputMode="decimal" value={text} disabled={disabled} onChange={(e) => setText(e.target.value)} />
      {dirty && <button onClick={() => onSave(Number(text))} disabled={!Number.isFinite(Number(text))}>Save</button>}
    </span>
  );
}

const AGENTS = [
  ['claude-code', 'Claude Code'],
  ['codex', 'Codex CLI'],
  ['gemini', 'Gemini CLI'],
] as const;

/** Agent setup: always a dry-run preview of the exact change first, then Apply. */
function AgentSetup({ stores }: { stores: Stores }): ReactNode {
  const [preview, setPreview] = useState<{ agent: string; uninstall: boolean; changes: Array<{ file: string; diff: string }> } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const show = async (agent: (typeof AGENTS)[number][0], uninstall: boolean): Promise<void> => {
    setNote(null);
    try {
      const r = await stores.bridge.call('setup.plan', { agent, uninstall });
      setPreview({ agent, uninstall, changes: r.changes });
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };
  const apply = async (): Promise<void> => {
    if (preview === null) return;
    try {
      const r = await stores.bridge.call('setup.apply', { agent: preview.agent, uninstall: preview.uninstall });
      setNote(`${preview.uninstall ? 'Removed from' : 'Set up'} ${preview.agent}: ${r.changed.length} file(s) changed${r.backups.length ? `, backups ${r.backups.join(', ')}` : ''}. Restart the agent.`);
      setPreview(null);
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="agent-setup" data-testid="agent-setup">
      <h3>Agent setup</h3>
      <p className="dim">Adds the Switchboard MCP server and hooks to the agent's user configuration (with a backup), or removes exactly what it added.</p>
      <div className="actions">
        {AGENTS.map(([id, name]) => (
          <span key={id} className="actions">
            <button onClick={() => void show(id, false)}>Set up {name}…</button>
            <button onClick={() => void show(id, true)}>Remove from {name}…</button>
          </span>
        ))}
      </div>
      {preview && (
        <div className="preview" data-testid="setup-preview">
          {preview.changes.length === 0 ? <p>Nothing to change for {preview.agent}.</p> : preview.changes.map((c) => <pre key={c.file} className="text">{c.diff}</pre>)}
          <div className="actions">
            <button onClick={() => setPreview(null)}>Cancel</button>
            {preview.changes.length > 0 && <button className="approve" onClick={() => void apply()}>Apply</button>}
          </div>
        </div>
      )}
      {note && <p role="status">{note}</p>}
    </div>
  );
}

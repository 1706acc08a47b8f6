// Agent setup as the user: always a dry-run preview of the exact change
// first, then Apply (which the hub writes with a backup). Used by
// Preferences (every agent, install or remove) and by the first-run page
// (install, for the agents found on PATH). Errors are shown, never thrown.
import { useState, type ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';

export type SetupAgentId = 'claude-code' | 'codex' | 'gemini' | 'opencode' | 'qwen';

export const AGENT_NAMES: Record<SetupAgentId, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  qwen: 'Qwen Code',
};
const ALL_AGENTS = Object.keys(AGENT_NAMES) as SetupAgentId[];

interface Preview {
  agent: SetupAgentId;
  uninstall: boolean;
  changes: Array<{ file: string; diff: string }>;
  /** The Claude Code version the plan was made for (the hub finds it as `switchboard setup` does). */
  agentVersion: string | null;
  /** Claude Code's install only: `http` reaches the hub's HTTP endpoint instead of a `switchboard mcp` process. */
  transport: { transport?: 'stdio' | 'http' };
}

export function AgentSetupPanel(props: {
  stores: Stores;
  agents?: readonly SetupAgentId[];
  allowRemove?: boolean;
  onApplied?: (agent: SetupAgentId) => void;
}): ReactNode {
  const { stores } = props;
  const agents = props.agents ?? ALL_AGENTS;
  const [preview, setPreview] = useState<Preview | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [overHttp, setOverHttp] = useState(false);
  const show = async (agent: SetupAgentId, uninstall: boolean): Promise<void> => {
    setNote(null);
    const transport: Preview['transport'] =
      agent === 'claude-code' && !uninstall ? { transport: overHttp ? 'http' : 'stdio' } : {};
    try {
      const r = await stores.bridge.call('setup.plan', { agent, uninstall, ...transport });
      setPreview({ agent, uninstall, changes: r.changes, agentVersion: r.agentVersion ?? null, transport });
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };
  const apply = async (): Promise<void> => {
    if (preview === null) return;
    try {
      const { agent, uninstall, transport } = preview;
      const r = await stores.bridge.call('setup.apply', { agent, uninstall, ...transport });
      setNote(
        `${preview.uninstall ? 'Removed from' : 'Set up'} ${AGENT_NAMES[preview.agent]}: ${r.changed.length} file(s) changed${r.backups.length ? `, backups ${r.backups.join(', ')}` : ''}. Restart the agent.`,
      );
      setPreview(null);
      props.onApplied?.(preview.agent);
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div data-testid="agent-setup-panel">
      <div className="actions wrap">
        {agents.map((id) => (
          <span key={id} className="actions">
            <button onClick={() => void show(id, false)}>Set up {AGENT_NAMES[id]}…</button>
            {props.allowRemove === true && (
              <button onClick={() => void show(id, true)}>Remove from {AGENT_NAMES[id]}…</button>
            )}
          </span>
        ))}
      </div>
      {agents.includes('claude-code') && (
        <label className="dim">
          <input type="checkbox" checked={overHttp} onChange={(e) => setOverHttp(e.target.checked)} /> Connect Claude
          Code over HTTP: no Switchboard process per session. The hub must be running (this app and `switchboard serve`
          serve it on 127.0.0.1).
        </label>
      )}
      {preview && (
        <div
          className="preview"
          data-testid="setup-preview"
          aria-label={`Preview of the changes for ${AGENT_NAMES[preview.agent]}`}
        >
          <p>
            {preview.changes.length === 0
              ? `Nothing to change for ${AGENT_NAMES[preview.agent]}.`
              : `Dry run: nothing is written until you press Apply. ${preview.changes.length} file(s) would change:`}
          </p>
          {preview.agent === 'claude-code' && !preview.uninstall && (
            <p className="dim" data-testid="planned-for">
              {preview.agentVersion !== null
                ? `Planned for Claude Code ${preview.agentVersion}, the version found on the hub’s PATH (as switchboard setup finds it).`
                : 'No Claude Code version found on the hub’s PATH: planned with the hook forms every version runs.'}
            </p>
          )}
          {preview.changes.map((c) => (
            <pre key={c.file} className="text">
              {c.diff}
            </pre>
          ))}
          <div className="actions">
            <button onClick={() => setPreview(null)}>Cancel</button>
            {preview.changes.length > 0 && (
              <button className="approve" onClick={() => void apply()}>
                Apply
              </button>
            )}
          </div>
        </div>
      )}
      {note && <p role="status">{note}</p>}
    </div>
  );
}

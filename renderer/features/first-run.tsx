// The start page while no session exists: which agents the hub finds on its
// PATH (claude, codex, gemini), setup for those not yet set up (a dry-run
// preview first, then Apply), then "waiting for your first session". Reads
// through setup.detect and changes nothing itself; errors are shown.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { BridgeResult } from '../../core/contract/bridge.js';
import type { Stores } from '../stores/stores.js';
import { AGENT_NAMES, AgentSetupPanel } from './agent-setup.js';

type Detected = BridgeResult<'setup.detect'>['agents'];

export function FirstRun({ stores }: { stores: Stores }): ReactNode {
  const [agents, setAgents] = useState<Detected | null>(null);
  const [error, setError] = useState<string | null>(null);
  const detect = useCallback(async (): Promise<void> => {
    try {
      const r = await stores.bridge.call('setup.detect');
      if (!Array.isArray(r?.agents)) throw new Error('the hub did not say which agents it found');
      setAgents(r.agents);
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [stores]);
  useEffect(() => void detect(), [detect]);
  const installed = agents?.filter((a) => a.path !== null) ?? [];
  const ready = installed.filter((a) => a.configured);
  const toSetUp = installed.filter((a) => !a.configured && a.problem === null).map((a) => a.agent);
  return (
    <div className="first-run" data-testid="first-run">
      <h3>No live sessions yet</h3>
      <p>
        Sessions appear here once a coding agent starts with Switchboard set up. Switchboard looked for agents on this
        computer:
      </p>
      {error !== null && (
        <p className="error" role="alert">
          Could not look for agents: {error}
        </p>
      )}
      {agents === null && error === null && <p className="muted">Looking for agents…</p>}
      {agents !== null && (
        <ul className="detected" aria-label="Agents found">
          {agents.map((a) => (
            <li key={a.agent} data-testid={`detected-${a.agent}`}>
              <strong>{AGENT_NAMES[a.agent]}</strong>{' '}
              {a.path === null ? (
                <span className="dim">
                  not found (no <code>{a.command}</code> on the hub's PATH)
                </span>
              ) : (
                <>
                  <span className="dim">
                    found at <code>{a.path}</code>
                  </span>{' '}
                  {a.configured ? (
                    <span className="pill tone-ok">set up</span>
                  ) : a.problem !== null ? (
                    <span className="error">cannot set up: {a.problem}</span>
                  ) : (
                    <span className="pill tone-wait">not set up</span>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {agents !== null && installed.length === 0 && (
        <p>
          No agent found. Install Claude Code, Codex CLI or Gemini CLI, or set one up from Preferences by hand.{' '}
          <button onClick={() => void detect()}>Look again</button>
        </p>
      )}
      {toSetUp.length > 0 && (
        <div className="agent-setup">
          <p>Set up an agent: you see exactly what changes in its configuration before anything is written.</p>
          <AgentSetupPanel stores={stores} agents={toSetUp} onApplied={() => void detect()} />
        </div>
      )}
      {ready.length > 0 && (
        <p className="waiting" role="status" data-testid="waiting">
          <span className="spinner" aria-hidden="true" /> Waiting for your first session… Start{' '}
          {ready.map((a) => AGENT_NAMES[a.agent]).join(' or ')} in a project (restart it if it was running); it shows up
          here.
        </p>
      )}
    </div>
  );
}

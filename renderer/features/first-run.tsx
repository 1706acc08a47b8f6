// The start page while no session exists: which agents the hub finds on its
// PATH (claude, codex, gemini, opencode; Claude Code with the version its setup is
// planned for), setup for those not yet set up (a dry-run preview first,
// then Apply), then "waiting for your first session". With no agent found
// it says what to install, and offers setup anyway for an agent installed
// where the hub's PATH does not reach. Reads through setup.detect and
// changes nothing itself; errors are shown.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { BridgeResult } from '../../core/contract/bridge.js';
import type { Stores } from '../stores/stores.js';
import { AGENT_NAMES, AgentSetupPanel, type SetupAgentId } from './agent-setup.js';

type Detected = BridgeResult<'setup.detect'>['agents'];

/** How each agent is installed (its own documentation's npm package). */
const INSTALL: Record<SetupAgentId, string> = {
  'claude-code': 'npm install -g @anthropic-ai/claude-code',
  codex: 'npm install -g @openai/codex',
  gemini: 'npm install -g @google/gemini-cli',
  opencode: 'npm install -g opencode-ai',
  qwen: 'npm install -g @qwen-code/qwen-code',
};

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
                    {a.version ? `${a.version}, ` : ''}found at <code>{a.path}</code>
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
        <div className="agent-setup" data-testid="no-agent">
          <p>
            <strong>No agent found on the hub’s PATH.</strong> Install one in a terminal, then press Look again:
          </p>
          <ul>
            {agents.map((a) => (
              <li key={a.agent}>
                {AGENT_NAMES[a.agent]}: <code>{INSTALL[a.agent]}</code>
              </li>
            ))}
          </ul>
          <p>
            Installed already, somewhere else? The hub looks on the PATH of the terminal that started it: start{' '}
            <code>switchboard serve --ui</code> again from a terminal where the agent runs, or set it up anyway below
            (or with <code>switchboard setup claude-code</code> in that terminal). Set up without a version found,
            Claude Code gets the hook forms every version runs.
          </p>
          <button onClick={() => void detect()}>Look again</button>
          <AgentSetupPanel stores={stores} agents={agents.filter((a) => !a.configured).map((a) => a.agent)} />
        </div>
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

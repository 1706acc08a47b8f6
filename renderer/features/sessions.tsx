// Sessions: every live session with name [ref], agent, where, state and for
// how long, its permission mode and class, what its inbound policy means for
// it, cwd, whether its inbox accepts messages, and a sparkline of its
// recent traffic. Filterable. A row opens
// its detail (Escape closes it): recent activity, a message from you (the
// user, clearly framed as such), an idle notice for you, and its history. With no
// session at all it shows the first-run page. An idle session that cannot
// be woken while messages wait for it carries a "waiting" badge.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { AgentRow } from '../../core/protocol/methods.js';
import type { Stores } from '../stores/stores.js';
import { ago, useLoadable, useNow } from '../ui/hooks.js';
import { StatusPill } from '../ui/pill.js';
import { Sparkline, traffic } from '../ui/sparkline.js';
import { Status } from '../ui/state.js';
import { FirstRun } from './first-run.js';
import { inboundText, modeView } from './session-mode.js';

export function SessionsView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.sessions);
  const now = useNow();
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string | null>(() => stores.focus.getState().itemId); // the Picture opens a session by its address
  // Opened from elsewhere (the Picture): its detail, scrolled into view, once.
  const revealed = useRef(open !== null);
  useEffect(() => {
    if (!revealed.current || open === null || !s.data.some((r) => r.address === open)) return;
    revealed.current = false;
    if (stores.focus.getState().itemId === open) stores.focus.setState({ itemId: null });
    document.querySelector('[data-testid=session-detail]')?.scrollIntoView?.({ block: 'nearest' });
  }, [open, s.data, stores]);
  const table = useRef<HTMLTableElement>(null);
  const spark = traffic(useLoadable(stores.activity).data.entries, now);
  const f = filter.trim().toLowerCase();
  const rows =
    f === ''
      ? s.data
      : s.data.filter((r) => `${r.label} ${r.cwd} ${r.agent} ${modeView(r).text}`.toLowerCase().includes(f));
  const close = (): void => {
    const was = open;
    setOpen(null);
    if (was !== null)
      table.current?.querySelector<HTMLButtonElement>(`button[data-address="${CSS.escape(was)}"]`)?.focus();
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && open !== null) close();
  };
  return (
    <section aria-labelledby="sessions-h" onKeyDown={onKey}>
      <header className="view-head">
        <h2 id="sessions-h">
          Sessions <span className="count">{s.data.length}</span>
        </h2>
        <input
          type="search"
          className="filter"
          placeholder="Filter by name, cwd, agent"
          aria-label="Filter sessions"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </header>
      <Status loading={s.loading} error={s.error} empty={s.data.length === 0} emptyText={<FirstRun stores={stores} />}>
        {rows.length === 0 && (
          <p className="empty">
            No session matches “{filter.trim()}”.{' '}
            <button className="link" onClick={() => setFilter('')}>
              Clear the filter
            </button>
          </p>
        )}
        <table className="grid" data-testid="sessions" ref={table} hidden={rows.length === 0}>
          <thead>
            <tr>
              <th>Name [ref]</th>
              <th>Agent</th>
              <th>Where</th>
              <th>State</th>
              <th>Permissions</th>
              <th>Inbound</th>
              <th>Inbox</th>
              <th>Traffic</th>
              <th>Cwd</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const mode = modeView(r);
              const inbound = inboundText(r);
              return (
                <tr
                  key={r.address}
                  className={`${open === r.address ? 'selected' : ''} ${mode.tone === 'bypass' || mode.tone === 'unknown' ? 'bypass-row' : ''}`}
                  data-testid={`session-${r.name}`}
                >
                  <td className="mono">
                    <button
                      className="link"
                      data-address={r.address}
                      aria-expanded={open === r.address}
                      onClick={() => (open === r.address ? close() : setOpen(r.address))}
                    >
                      {r.label}
                    </button>
                  </td>
                  <td>
                    {r.kind === 'claude-code' ? (
                      <span title="A Claude Code session with its own messaging (found in its session registry)">
                        Claude Code <span className="tag">own messaging</span>
                        {r.host !== undefined && <span className="tag">{r.host}</span>}
                      </span>
                    ) : r.kind === 'qwen-code' ? (
                      <span title="A Qwen Code session with its own messaging (found in its session registry)">
                        Qwen Code <span className="tag">own messaging</span>
                      </span>
                    ) : (
                      r.agent
                    )}
                    {r.hooks === 'never' && (
                      <>
                        {' '}
                        <span
                          className="tag"
                          title="Its hook commands never reached the hub: Codex runs hooks only after you trust them (/hooks), Gemini only in trusted folders"
                        >
                          hooks not running
                        </span>
                      </>
                    )}
                  </td>
                  <td>
                    {r.machine ?? 'this machine'}
                    {r.awaySince !== undefined && (
                      <>
                        {' '}
                        <span
                          className="tag"
                          data-testid="away-badge"
                          title={`Its machine is offline since ${new Date(r.awaySince).toLocaleString()}; the relay stores messages for it until it is back (or they expire)`}
                        >
                          away {ago(r.awaySince, now)}
                        </span>
                      </>
                    )}
                  </td>
                  <td>
                    <span className={`pill state-${r.state}`}>{r.state}</span> {ago(r.stateSince, now)}
                    {(r.waiting ?? 0) > 0 && (
                      <>
                        {' '}
                        <span
                          className="tag waiting"
                          data-testid="waiting-badge"
                          title="Its agent cannot be woken from outside: switch to it and type anything, or it reads them at its next turn"
                        >
                          {waitingText(r)}
                        </span>
                      </>
                    )}
                  </td>
                  <td title={mode.title} data-testid="mode">
                    {mode.classText !== null && (
                      <span className={`pill mode-${mode.tone}`}>
                        {mode.tone === 'unknown' ? 'mode unknown' : mode.classText}
                      </span>
                    )}
                    {mode.tone !== 'unknown' && (
                      <>
                        {' '}
                        <span className={mode.tone === 'none' ? 'dim' : ''}>{mode.text}</span>
                      </>
                    )}
                    {mode.source !== null && (
                      <>
                        {' '}
                        <span className="dim" data-testid="mode-source">
                          {mode.source}
                        </span>
                      </>
                    )}
                  </td>
                  <td title={inbound.title} data-testid="inbound">
                    {inbound.text}
                  </td>
                  <td>
                    {r.inboxDepth}
                    {r.canReceive ? '' : ' (not receiving)'}
                  </td>
                  <td>
                    <Sparkline counts={spark.get(r.name)} label={r.name} />
                  </td>
                  <td className="mono dim">{r.cwd}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {open !== null && s.data.some((r) => r.address === open) && (
          <SessionDetail stores={stores} row={s.data.find((r) => r.address === open)!} />
        )}
      </Status>
    </section>
  );
}

/** "2 messages waiting for web [3f], which is idle" */
export function waitingText(r: Pick<AgentRow, 'waiting' | 'label'>): string {
  const n = r.waiting ?? 0;
  return `${n} message${n === 1 ? '' : 's'} waiting for ${r.label}, which is idle`;
}

function SessionDetail({ stores, row }: { stores: Stores; row: AgentRow }): ReactNode {
  const activity = useLoadable(stores.activity);
  const now = useNow(5000);
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const recent = activity.data.entries.filter((e) => e.sender === row.name || e.receiver === row.name).slice(0, 10);
  const send = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (text.trim() === '') return;
    try {
      const r = await stores.bridge.call('user.send', { to: row.address, message: text });
      setNote(
        r.status === 'queued'
          ? `Queued for ${row.name}; it reads it at its next tool round.`
          : 'Dropped: its inbox is full.',
      );
      setText('');
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };
  const subscribe = async (): Promise<void> => {
    try {
      await stores.bridge.call('user.subscribe', { to: row.address });
      setNote(`You will get one notice when ${row.name} next goes idle (see Activity).`);
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="detail" data-testid="session-detail">
      <h3 className="mono">{row.label}</h3>
      <p className="dim mono">{row.address}</p>
      {row.kind !== 'switchboard' ? (
        <p data-testid="stock-note">
          A {row.kind === 'qwen-code' ? 'Qwen Code' : 'Claude Code'} session with its own cross-session messaging: your
          sessions reach it by name, and its receipts come back to them. To talk to it yourself, type in its terminal.
        </p>
      ) : (
        <form onSubmit={(e) => void send(e)} className="user-send">
          <label htmlFor="user-message">
            Message from you (the user) — it reaches the agent as yours, not as a peer's
          </label>
          <textarea id="user-message" rows={3} value={text} onChange={(e) => setText(e.target.value)} />
          <div className="actions">
            <button type="submit">Send as the user</button>
            <button type="button" onClick={() => void subscribe()}>
              Notify me when idle
            </button>
          </div>
        </form>
      )}
      <p>
        <button
          type="button"
          onClick={() => void stores.history.getState().open({ kind: 'search' }, { session: row.name })}
        >
          Open its history
        </button>{' '}
        <span className="dim">
          every kept message to or from {row.name}, with its outcome; open any one's conversation from there
        </span>
      </p>
      {note && <p role="status">{note}</p>}
      <h4>Recent activity</h4>
      {recent.length === 0 ? (
        <p className="dim">Nothing yet.</p>
      ) : (
        <ul className="recent">
          {recent.map((e, i) => (
            <li key={`${e.msgId}-${i}`}>
              <StatusPill status={e.status} /> {e.sender} → {e.receiver}{' '}
              <span className="dim">{ago(e.at, now)} ago</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

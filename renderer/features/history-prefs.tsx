// The history in Preferences: whether it is on (and why not), how much it
// holds, and one action to delete all of it (a second click confirms). One
// conversation is deleted from its own view (History → a conversation).
// Reads history.status; deletes through history.delete; errors are shown.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { BridgeResult } from '../../core/contract/bridge.js';
import type { Stores } from '../stores/stores.js';

const MEGABYTE = 1024 * 1024;

export function HistoryPrefs({ stores }: { stores: Stores }): ReactNode {
  const [status, setStatus] = useState<BridgeResult<'history.status'> | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const load = useCallback(async (): Promise<void> => {
    try {
      const r = await stores.bridge.call('history.status');
      if (typeof r?.enabled !== 'boolean') throw new Error('the hub did not say how its history is');
      setStatus(r);
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  }, [stores]);
  useEffect(() => void load(), [load]);
  const deleteAll = async (): Promise<void> => {
    setConfirming(false);
    try {
      const r = await stores.bridge.call('history.delete', { all: true });
      setNote(`Deleted ${r.deleted} message${r.deleted === 1 ? '' : 's'} from the history.`);
      await stores.history.getState().load();
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
    await load();
  };
  return (
    <div className="agent-setup" data-testid="history-prefs">
      <h3>Message history</h3>
      {status === null ? (
        <p className="dim">{note ?? 'Loading…'}</p>
      ) : (
        <>
          <p className="dim">
            {status.enabled
              ? `${status.messages} message${status.messages === 1 ? '' : 's'} kept, ${(status.bytes / MEGABYTE).toFixed(1)} MB, in ${status.file} (readable only by you; nothing from it is sent anywhere).`
              : `History is off: ${status.reason ?? 'unknown reason'}.`}
            {status.paused !== null && ` History is ${status.paused}.`}
            {status.gap.records > 0 &&
              ` ${status.gap.records} records were not kept (the hub was too busy, or its disk too full).`}
          </p>
          <div className="actions">
            {!confirming ? (
              <button
                className="deny"
                disabled={!status.enabled || status.messages === 0}
                onClick={() => setConfirming(true)}
              >
                Delete all history…
              </button>
            ) : (
              <>
                <button className="deny" onClick={() => void deleteAll()}>
                  Delete {status.messages} messages for good
                </button>
                <button onClick={() => setConfirming(false)}>Cancel</button>
              </>
            )}
          </div>
          <p className="dim">To delete one conversation, open it in History and choose “Delete this conversation”.</p>
          {note !== null && <p role="status">{note}</p>}
        </>
      )}
    </div>
  );
}

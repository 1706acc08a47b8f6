// Desktop-only preferences (launch at login, the command-line launcher),
// shown when the bridge is the Electron one; the headless UI says where
// to find them instead.
import { useEffect, useState, type ReactNode } from 'react';
import type { DesktopPrefsView } from '../../core/contract/desktop.js';
import type { Stores } from '../stores/stores.js';

export function DesktopPrefs({ stores }: { stores: Stores }): ReactNode {
  const desktop = stores.bridge.desktop;
  const [view, setView] = useState<DesktopPrefsView | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (desktop) void desktop('desktop.get', {}).then(setView, (err: unknown) => setNote(String(err)));
  }, [desktop]);
  if (!desktop)
    return (
      <p className="dim" data-testid="desktop-prefs-absent">
        Launch at login and the command-line launcher are set in the desktop app.
      </p>
    );
  const run = async (f: () => Promise<unknown>): Promise<void> => {
    setNote(null);
    try {
      await f();
      setView(await desktop('desktop.get', {}));
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="desktop-prefs" data-testid="desktop-prefs">
      <h3>Desktop</h3>
      <label>
        <input
          type="checkbox"
          aria-label="launchAtLogin"
          checked={view?.launchAtLogin ?? false}
          disabled={view === null}
          onChange={(e) => void run(() => desktop('desktop.set', { launchAtLogin: e.target.checked }))}
        />{' '}
        Launch Switchboard at login (in the menu bar, no window)
      </label>
      <p>
        Command-line tool:{' '}
        {view?.cliLink.linked ? (
          <>
            installed at <code>{view.cliLink.path}</code>
          </>
        ) : (
          <>not installed</>
        )}{' '}
        <button
          onClick={() =>
            void run(async () =>
              setNote(`Installed ${(await desktop('desktop.linkCli', {})).path}; it runs with your Node 20.19+.`),
            )
          }
        >
          {view?.cliLink.linked ? 'Reinstall' : 'Install command-line tool'}
        </button>
      </p>
      {note && <p role="status">{note}</p>}
    </div>
  );
}

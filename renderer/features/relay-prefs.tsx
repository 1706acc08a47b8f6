// The relay in Preferences: servers and this machine's name, saved to the
// user settings (credentials and TLS stay in the file: the UI never sees
// them) the way every preference is (pref-controls.tsx): on Enter or on
// leaving a field, with what happened beside it; emptying the servers
// removes the relay. Locked when managed settings decide. Shows whether it
// is connected.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Stores } from '../stores/stores.js';
import { FieldStatus, fieldIds, type FieldState } from './pref-controls.js';

interface RelayValue {
  servers: string[];
  machine?: string;
  token?: string;
  credsFile?: string;
}

export function RelayPrefs({
  stores,
  value,
  source,
  save,
}: {
  stores: Stores;
  value: RelayValue | null;
  source: string;
  /** Resolves to what went wrong, in words, or null once saved. */
  save: (v: unknown) => Promise<string | null>;
}): ReactNode {
  const status = useStore(stores.confirmations, (c) => c.data.relay);
  const [servers, setServers] = useState((value?.servers ?? []).join(' '));
  const [machine, setMachine] = useState(value?.machine ?? '');
  useEffect(() => {
    setServers((value?.servers ?? []).join(' '));
    setMachine(value?.machine ?? '');
  }, [value]);
  const [state, setState] = useState<FieldState | undefined>();
  const locked = source === 'managed';
  const list = servers.split(/[\s,]+/).filter((s) => s !== '');
  const next =
    list.length === 0 ? null : { servers: list, ...(machine.trim() !== '' ? { machine: machine.trim() } : {}) };
  const commit = async (): Promise<void> => {
    if (
      JSON.stringify(next) ===
      JSON.stringify(
        value === null ? null : { servers: value.servers, ...(value.machine ? { machine: value.machine } : {}) },
      )
    )
      return;
    setState({ kind: 'saving' });
    const error = await save(next);
    setState(error === null ? { kind: 'saved' } : { kind: 'error', text: error });
    await stores.confirmations.getState().load();
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void commit();
  };
  const ids = fieldIds('relay');
  const field = {
    disabled: locked,
    'aria-describedby': ids.status,
    'aria-invalid': state?.kind === 'error',
    onBlur: () => void commit(),
  };
  return (
    <form className="relay-prefs" data-testid="relay" onSubmit={(e) => void submit(e)}>
      <h3>Other machines (relay)</h3>
      <p className="dim">
        Hubs on your other machines meet through a NATS server.{' '}
        {status.configured
          ? status.connected
            ? `Connected as ${status.machine ?? '?'}.`
            : 'Not connected (it retries).'
          : 'Not configured: nothing leaves this machine.'}
        {value?.token || value?.credsFile
          ? ' Credentials are set in the settings file.'
          : ' Credentials (token, credsFile) and TLS are set in the settings file.'}
        {locked && ' Managed settings decide the relay here.'}
      </p>
      <label>
        Servers{' '}
        <input
          aria-label="relay servers"
          placeholder="nats://nats.example.internal:4222"
          value={servers}
          {...field}
          onChange={(e) => setServers(e.target.value)}
          size={48}
        />
      </label>{' '}
      <label>
        This machine{' '}
        <input
          aria-label="relay machine"
          placeholder="host name"
          value={machine}
          {...field}
          onChange={(e) => setMachine(e.target.value)}
          size={16}
        />
      </label>{' '}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      <FieldStatus fieldKey="relay" state={state} />
      {next === null && value !== null && state === undefined && (
        <p className="dim">Leaving the servers empty removes the relay when you press Enter or leave the field.</p>
      )}
    </form>
  );
}

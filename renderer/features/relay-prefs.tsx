// The relay in Preferences: servers and this machine's name, saved to the
// user settings (credentials and TLS stay in the file: the UI never sees
// them). Locked when managed settings decide. Shows whether it is connected.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Stores } from '../stores/stores.js';

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
  save: (v: unknown) => Promise<void>;
}): ReactNode {
  const status = useStore(stores.confirmations, (c) => c.data.relay);
  const [servers, setServers] = useState((value?.servers ?? []).join(' '));
  const [machine, setMachine] = useState(value?.machine ?? '');
  useEffect(() => {
    setServers((value?.servers ?? []).join(' '));
    setMachine(value?.machine ?? '');
  }, [value]);
  const locked = source === 'managed';
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const list = servers.split(/[\s,]+/).filter((s) => s !== '');
    await save(
      list.length === 0 ? null : { servers: list, ...(machine.trim() !== '' ? { machine: machine.trim() } : {}) },
    );
    await stores.confirmations.getState().load();
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
          disabled={locked}
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
          disabled={locked}
          onChange={(e) => setMachine(e.target.value)}
          size={16}
        />
      </label>{' '}
      <button type="submit" disabled={locked}>
        {servers.trim() === '' && value !== null ? 'Remove relay' : 'Save relay'}
      </button>
    </form>
  );
}

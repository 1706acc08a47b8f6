// A Sessions row as agents.list returns it, for the renderer's tests.
import type { AgentRow } from '../../core/protocol/methods.js';

export const agentRow = (name: string, extra: Partial<AgentRow> = {}): AgentRow => ({
  name,
  ref: 'abc123',
  label: `${name} [abc123]`,
  address: `uds:/r/${name}.sock`,
  machine: null,
  cwd: `/w/${name}`,
  agent: 'claude',
  kind: 'switchboard',
  mode: 'default',
  hooks: 'reported',
  state: 'idle',
  stateSince: 0,
  canReceive: true,
  self: false,
  inboxDepth: 0,
  inbound: { value: null, source: 'parity' },
  ...extra,
});

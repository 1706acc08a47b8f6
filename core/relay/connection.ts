// How the relay connects to NATS: the `relay` setting's servers and
// credentials (token, user and password, a creds file, TLS), and a client
// that reconnects forever with backoff and pings every 10 s.

import fs from 'node:fs';
import { credsAuthenticator, type NodeConnectionOptions } from '@nats-io/transport-node';
import type { RelaySettings } from '../settings/schema.js';

export function connectionOptions(s: RelaySettings, machine: string): NodeConnectionOptions {
  return {
    servers: s.servers,
    name: `switchboard@${machine}`,
    ...(s.token ? { token: s.token } : {}),
    ...(s.user ? { user: s.user, pass: s.password ?? '' } : {}),
    ...(s.credsFile ? { authenticator: credsAuthenticator(new Uint8Array(fs.readFileSync(s.credsFile))) } : {}),
    ...(s.tls ? { tls: { ...s.tls } } : {}),
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    reconnectJitter: 500,
    pingInterval: 10_000,
    timeout: 5000,
  };
}

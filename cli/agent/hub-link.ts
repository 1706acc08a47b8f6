// The MCP adapter's link to the hub, kept across a hub restart. An adapter
// lives as long as its agent, a hub may not (the desktop app quit and
// opened again, `serve` restarted): a HubClient whose connection closed
// fails every call for good, so every tool of the agent answered "hub
// connection closed" until the agent itself restarted. The link connects
// again on the first call after the connection closed and first lets the
// adapter resume its session there (the hub kept it dormant with its
// inbox). A call that was in flight when the hub went fails as it did: it
// is not sent twice (a send may have been journaled).

import type { HubClient } from '../../core/client/client.js';

export type HubCaller = Pick<HubClient, 'call'>;

export class HubLink implements HubCaller {
  #client: HubClient;
  #closed = false;
  #again: Promise<HubClient> | undefined;
  readonly #connect: () => Promise<HubClient>;
  readonly #resume: (client: HubClient) => Promise<void>;

  /** `resume` runs on each new connection before any call goes over it (not on the first: the caller set that up). */
  constructor(client: HubClient, connect: () => Promise<HubClient>, resume: (client: HubClient) => Promise<void>) {
    this.#client = client;
    this.#connect = connect;
    this.#resume = resume;
    this.#watch(client);
  }

  call: HubClient['call'] = async (method, params, opts) => {
    const client = this.#closed ? await this.#reconnect() : this.#client;
    return client.call(method, params, opts);
  };

  close(): void {
    this.#client.close();
  }

  #watch(client: HubClient): void {
    client.onClose(() => {
      if (client === this.#client) this.#closed = true;
    });
  }

  /** One reconnection at a time; a failed one is tried again by the next call. */
  #reconnect(): Promise<HubClient> {
    this.#again ??= (async () => {
      const client = await this.#connect();
      try {
        await this.#resume(client);
      } catch (err) {
        client.close();
        throw err;
      }
      this.#client = client;
      this.#closed = false;
      this.#watch(client);
      return client;
    })().finally(() => (this.#again = undefined));
    return this.#again;
  }
}

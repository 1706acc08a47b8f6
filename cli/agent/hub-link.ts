// The MCP adapter's link to the hub, kept across a hub restart. An adapter
// lives as long as its agent, a hub may not (the desktop app quit and
// opened again, `serve` restarted): a HubClient whose connection closed
// fails every call for good, so every tool of the agent answered "hub
// connection closed" until the agent itself restarted. The link connects
// again on the first call after the connection closed and first lets the
// adapter resume its session there (the hub kept it dormant with its
// inbox). A call that was in flight when the hub went fails as it did: it
// is not sent twice (a send may have been journaled). The link never
// starts a hub (`connect` only connects): calls fail while none runs.

import type { HubClient } from '../../core/client/client.js';

export type HubCaller = Pick<HubClient, 'call'>;

export class HubLink implements HubCaller {
  #client: HubClient;
  #closed = false;
  #ended = false;
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
    if (this.#ended) throw new Error('the hub link is closed');
    const client = this.#closed ? await this.#reconnect() : this.#client;
    return client.call(method, params, opts);
  };

  /** Connected now (false after the hub went away, until a call connects again). */
  get connected(): boolean {
    return !this.#closed && !this.#ended;
  }

  /** Closes the connection; a reconnection under way is closed as it lands, and no call connects again. */
  close(): void {
    this.#ended = true;
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
        if (this.#ended) throw new Error('the hub link is closed');
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

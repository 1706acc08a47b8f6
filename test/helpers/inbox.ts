// A registered session's inbox as its own hooks see it: its credentials,
// what `inbox.fetch` returns (nothing acknowledged), and the receipts there
// for one message.
import type { HubClient } from '../../core/client/client.js';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';

export const authOf = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

export async function fetchInbox(c: HubClient, r: Registration): Promise<InboxItem[]> {
  return (await c.call('inbox.fetch', { ...authOf(r), limit: 50 })).items;
}

export async function receiptsIn(c: HubClient, r: Registration, msgId: string): Promise<InboxItem[]> {
  return (await fetchInbox(c, r)).filter((i) => i.kind === 'receipt' && i.origMsgId === msgId);
}

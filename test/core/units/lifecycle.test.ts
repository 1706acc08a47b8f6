// Session lifecycle on fake ports (no hub): registration writes the journal
// record before listing and binds the socket (a real one, in a temp
// directory); a failed bind lists nothing and retracts the record; ending a
// session tells its senders and forgets it; dormant only with something to resume.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Envelope } from '../../../core/delivery/envelope.js';
import type { JournalRecord } from '../../../core/journal/journal.js';
import { RegisterParams, type InboxReceipt } from '../../../core/protocol/methods.js';
import { hashToken, persisted, senderClass, type SessionRecord } from '../../../core/registry/session.js';
import {
  activateSession,
  registerSession,
  retireSession,
  type LifecyclePorts,
} from '../../../core/sessions/lifecycle.js';
import { trimDormant } from '../../../core/sessions/retention.js';
import { emptyParsed } from '../../../core/settings/schema.js';
import type { RpcConnection } from '../../../core/transport/rpc-server.js';
import { tempDir } from '../../helpers/temp.js';
import { admissionHarness, effectiveWith, session } from './fakes.js';

const conn: RpcConnection = { id: 7, notify: () => undefined, closed: false };
const open: net.Server[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await new Promise<void>((r) => (s.listening ? s.close(() => r()) : r()));
});

function harness(socketDir = tempDir('sb-units-')) {
  const a = admissionHarness({ limits: { dormantRetentionMs: 1000 } });
  const forgotten: string[] = [];
  const idleForgotten: string[] = [];
  const ended = { count: 0 };
  const servers = new Map<string, net.Server>();
  const ports: LifecyclePorts = {
    table: a.table,
    journal: a.journal,
    mailboxes: a.mailboxes,
    admission: a.admission,
    receipts: a.receipts,
    servers,
    limits: a.receiptPorts.limits,
    clock: a.clock,
    log: a.log,
    events: a.ports.events,
    settings: { parseFlag: () => emptyParsed(), forget: () => undefined },
    paths: {
      socketDir,
      runtimeDir: socketDir,
      stateDir: socketDir,
      hubSocket: path.join(socketDir, 'hub.sock'),
      windows: false,
    },
    inboundHandler: () => ({ checkAuth: () => 'bad', message: () => undefined, rename: () => undefined }),
    forgetSession: (id) => void forgotten.push(id),
    connections: { move: () => undefined },
    idle: { forgetSubscriber: (id) => void idleForgotten.push(id) },
    rules: { sessionEnded: () => undefined },
    reclaimer: { sessionEnded: () => void ended.count++ },
  };
  const track = (): void => void open.push(...servers.values());
  return { ...a, ports, servers, forgotten, idleForgotten, ended, socketDir, track };
}

const register = (name: string) => RegisterParams.parse({ name, cwd: '/work' });
const connects = (p: string) =>
  new Promise<boolean>((r) =>
    net
      .connect(p)
      .once('connect', function (this: net.Socket) {
        this.destroy();
        r(true);
      })
      .once('error', () => r(false)),
  );
const envFrom = (s: SessionRecord, id: string): Envelope => ({
  msgId: id,
  fromAddress: s.address,
  fromName: s.name,
  fromSessionId: s.id,
  fromClass: senderClass(s),
  ownChild: false,
  summary: 's',
  body: id,
  at: 0,
});
const undelivered = (h: ReturnType<typeof harness>, s: SessionRecord) =>
  h.mailboxes.fetch(s.id, 100).filter((i): i is InboxReceipt => i.kind === 'receipt' && i.status === 'undelivered');

describe('registerSession', () => {
  it('writes the session record before it is listed or bound, then binds its socket and lists it', async () => {
    const h = harness();
    const seen: Array<{ t: string; listed: boolean; bound: boolean }> = [];
    const append = h.journal.append.bind(h.journal);
    h.ports.journal.append = (rec: JournalRecord) => {
      if (rec.t === 's')
        seen.push({ t: rec.t, listed: h.table.live.has(rec.s.id), bound: fs.existsSync(rec.s.socketPath) });
      return append(rec);
    };
    const r = await registerSession(h.ports, register('alpha'), conn);
    h.track();
    expect(seen).toEqual([{ t: 's', listed: false, bound: false }]);
    expect(r.resumed).toBe(false);
    expect(r.session.tokenHash).toBe(hashToken(r.token));
    expect(h.journal.records).toEqual([{ t: 's', s: persisted(r.session) }]);
    expect(h.table.live.get(r.session.id)).toBe(r.session);
    expect(r.session).toMatchObject({
      name: 'alpha',
      connectionId: 7,
      socketPath: path.join(h.socketDir, `s-${r.session.id}.sock`),
    });
    expect(fs.statSync(r.session.socketPath).isSocket()).toBe(true);
    expect(fs.statSync(r.session.socketPath).mode & 0o777).toBe(0o600);
    expect(await connects(r.session.socketPath)).toBe(true);
    expect(h.servers.has(r.session.id)).toBe(true);
    expect(h.events).toEqual([{ type: 'sessions.changed' }]);
  });

  it('a bind failure lists nothing, leaves no socket and retracts the record with a drop', async () => {
    const h = harness(path.join(tempDir('sb-units-'), 'missing')); // the socket directory does not exist
    await expect(registerSession(h.ports, register('beta'), conn)).rejects.toThrow(/listen/); // ENOENT or EACCES, by platform
    expect(h.table.size).toBe(0);
    expect(h.servers.size).toBe(0);
    expect(h.events).toEqual([]);
    const [written, retracted] = h.journal.records;
    if (written?.t !== 's') throw new Error(`expected the session record first, got ${JSON.stringify(written)}`);
    expect(written.s.name).toBe('beta');
    expect(retracted).toEqual({ t: 'd', id: written.s.id });
    expect(h.journal.records).toHaveLength(2);
  });

  it('a failed resume puts the previous record back instead of a drop', async () => {
    const h = harness(path.join(tempDir('sb-units-'), 'missing'));
    const previous = persisted(session('old-name', {}, h.socketDir));
    await expect(activateSession(h.ports, { ...previous, name: 'new-name' }, conn, previous)).rejects.toThrow();
    expect(h.journal.records).toEqual([
      { t: 's', s: { ...previous, name: 'new-name' } },
      { t: 's', s: previous },
    ]);
    expect(h.table.size).toBe(0);
  });

  it('a journal that cannot be written refuses the registration before any socket exists', async () => {
    const h = harness();
    h.journal.failWhen = () => true;
    await expect(registerSession(h.ports, register('gamma'), conn)).rejects.toThrow('disk full');
    expect(h.table.size).toBe(0);
    expect(h.servers.size).toBe(0);
    expect(fs.readdirSync(h.socketDir)).toEqual([]);
  });
});

describe('retireSession', () => {
  async function live(h: ReturnType<typeof harness>, name: string): Promise<SessionRecord> {
    const r = await registerSession(h.ports, register(name), conn);
    h.track();
    return r.session;
  }

  describe('a final end', () => {
    /** target has one queued message (from a) and one held (from b), then ends for good. */
    async function finalEnd() {
      const h = harness();
      const target = await live(h, 'target');
      const a = await live(h, 'writer-a');
      const b = await live(h, 'writer-b');
      expect((await h.admission.route(envFrom(a, 'queued-1'), target)).status).toBe('queued');
      h.settings.eff = effectiveWith('hold');
      expect((await h.admission.route(envFrom(b, 'held-1'), target)).status).toBe('held');
      h.events.length = 0;
      await retireSession(h.ports, target.id, 'final');
      return { h, target, a, b };
    }

    it('forgets the session everywhere (its socket and journal too)', async () => {
      const { h, target } = await finalEnd();
      expect(h.forgotten).toEqual([target.id]);
      expect(h.idleForgotten).toEqual([target.id]);
      expect(h.servers.has(target.id)).toBe(false);
      expect(h.table.live.has(target.id)).toBe(false);
      expect(h.table.dormant.has(target.id)).toBe(false);
      expect(await connects(target.socketPath)).toBe(false);
      expect(h.journal.records.at(-1)).toEqual({ t: 'd', id: target.id });
    });

    it('tells the sender of each queued and held message "undelivered"', async () => {
      const { h, a, b } = await finalEnd();
      expect(undelivered(h, a)).toMatchObject([
        { origMsgId: 'queued-1', reason: 'the session ended and cannot resume' },
      ]);
      expect(undelivered(h, b)).toMatchObject([{ origMsgId: 'held-1' }]);
      expect(h.admission.held.size).toBe(0);
    });

    it('is announced to the UI once and counted', async () => {
      const { h } = await finalEnd();
      expect(h.events).toEqual([{ type: 'sessions.changed' }, { type: 'held.changed', count: 0 }]);
      expect(h.ended.count).toBe(1);
    });
  });

  describe('a dormant end', () => {
    /** empty has no mail; busy has one message from sender. */
    async function twoSessions() {
      const h = harness();
      const empty = await live(h, 'empty');
      const busy = await live(h, 'busy');
      const sender = await live(h, 'sender');
      await h.admission.route(envFrom(sender, 'for-busy'), busy);
      return { h, empty, busy, sender };
    }

    it('forgets a session with nothing to resume at once', async () => {
      const { h, empty } = await twoSessions();
      await retireSession(h.ports, empty.id, 'dormant');
      expect(h.table.dormant.has(empty.id)).toBe(false);
      expect(h.journal.records.at(-1)).toEqual({ t: 'd', id: empty.id });
    });

    it('keeps a session with unread messages, its senders not told anything', async () => {
      const { h, busy, sender } = await twoSessions();
      await retireSession(h.ports, busy.id, 'dormant');
      expect(h.table.dormant.get(busy.id)?.session.id).toBe(busy.id);
      expect(h.journal.records.some((r) => r.t === 'd' && r.id === busy.id)).toBe(false);
      expect(h.mailboxes.depth(busy.id)).toBe(1);
      expect(undelivered(h, sender)).toEqual([]);
    });

    it('past its retention, forgets it and tells its senders "undelivered"', async () => {
      const { h, busy, sender } = await twoSessions();
      await retireSession(h.ports, busy.id, 'dormant');
      h.clock.advance(1001); // past dormantRetentionMs
      await trimDormant(h.ports);
      expect(h.table.dormant.has(busy.id)).toBe(false);
      expect(undelivered(h, sender)).toMatchObject([
        { origMsgId: 'for-busy', reason: 'the session ended and was not resumed in time' },
      ]);
      expect(h.journal.records.at(-1)).toEqual({ t: 'd', id: busy.id });
    });
  });
});

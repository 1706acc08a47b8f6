// The IPC server: the sender check, the contract check and the result
// envelopes, against a real hub (bridge operations) and fake desktop handlers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runBridgeOperation } from '../../core/index.js';
import { createIpcServer, senderProblem, type DesktopHandlers, type IpcSender } from '../../electron/ipc/server.js';
import { startHub, type TestHub } from '../helpers/hub.js';

const OURS = 7;
const good: IpcSender = {
  sender: { id: OURS },
  senderFrame: { url: 'app://switchboard/index.html#sessions', parent: null },
};

let t: TestHub;
let logged: Array<[string, Record<string, unknown>]>;
let desktop: DesktopHandlers;

function server() {
  return createIpcServer({
    trusted: () => new Set([OURS]),
    bridge: (op, input) => runBridgeOperation(t.hub, op, input),
    desktop,
    log: (m, f) => logged.push([m, f]),
  });
}

beforeEach(async () => {
  t = await startHub();
  logged = [];
  desktop = {
    'desktop.get': () => ({ launchAtLogin: false, cliLink: { path: '/x', linked: false }, paused: false }),
    'desktop.set': (input) => ({
      launchAtLogin: input.launchAtLogin ?? false,
      cliLink: { path: '/x', linked: false },
      paused: false,
    }),
    'desktop.linkCli': () => {
      throw new Error('EACCES: secret internal path /root/.local/bin');
    },
  };
});
afterEach(async () => t.close());

describe('sender validation', () => {
  it.each([
    ['another webContents', { sender: { id: 99 }, senderFrame: good.senderFrame }, 'not one of our windows'],
    [
      'a sub-frame',
      { sender: { id: OURS }, senderFrame: { url: 'app://switchboard/index.html', parent: {} } },
      'a sub-frame',
    ],
    [
      'a foreign origin',
      { sender: { id: OURS }, senderFrame: { url: 'https://evil.example/', parent: null } },
      'a foreign origin',
    ],
    [
      'a file:// page',
      { sender: { id: OURS }, senderFrame: { url: 'file:///tmp/x.html', parent: null } },
      'a foreign origin',
    ],
    [
      'a look-alike host',
      { sender: { id: OURS }, senderFrame: { url: 'app://switchboard.evil/index.html', parent: null } },
      'a foreign origin',
    ],
    ['a destroyed frame', { sender: { id: OURS }, senderFrame: null }, 'the frame is gone'],
  ] as Array<[string, IpcSender, string]>)('refuses %s before running anything', async (_name, sender, why) => {
    expect(senderProblem(sender, new Set([OURS]))).toBe(why);
    const r = await server()(sender, 'held.list', {});
    expect(r).toEqual({ ok: false, reason: 'unauthorized', message: 'Unauthorized: unknown session or wrong token' });
    expect(logged[0]).toEqual(['IPC call refused', expect.objectContaining({ why })]);
  });

  it('accepts the top frame of our window on app://', () => {
    expect(senderProblem(good, new Set([OURS]))).toBeNull();
  });
});

describe('operations', () => {
  it('runs a contract operation on the hub and returns its result', async () => {
    const r = await server()(good, 'sessions.list', {});
    expect(r).toEqual({ ok: true, result: { rows: [] } });
    const paused = await server()(good, 'inbound.pause', { paused: true });
    expect(paused).toEqual({ ok: true, result: { paused: true } });
    expect(t.hub.admission.paused).toBe(true);
  });

  it('refuses unknown operations and non-string names', async () => {
    expect(await server()(good, 'session.register', {})).toMatchObject({ ok: false, reason: 'method_not_found' });
    expect(await server()(good, '__proto__', {})).toMatchObject({ ok: false, reason: 'method_not_found' });
    expect(await server()(good, { op: 'held.list' }, {})).toMatchObject({ ok: false, reason: 'invalid_request' });
    expect(await server()(good, 'x'.repeat(65), {})).toMatchObject({ ok: false, reason: 'invalid_request' });
  });

  it('refuses bad input with the schema issues and never runs the handler', async () => {
    const set = vi.spyOn(desktop, 'desktop.set');
    expect(await server()(good, 'desktop.set', { launchAtLogin: 'yes' })).toMatchObject({
      ok: false,
      reason: 'invalid_params',
      data: { issues: [expect.stringContaining('launchAtLogin')] },
    });
    expect(await server()(good, 'desktop.set', { launchAtLogin: true, extra: 1 })).toMatchObject({
      ok: false,
      reason: 'invalid_params',
    });
    expect(set).not.toHaveBeenCalled();
    expect(await server()(good, 'held.approve', { id: 42 })).toMatchObject({ ok: false, reason: 'invalid_params' });
    expect(await server()(good, 'held.approve', { id: 'x', uiToken: 'forged' })).toMatchObject({
      ok: false,
      reason: 'invalid_params',
    });
    expect(await server()(good, 'held.list', 'not an object')).toMatchObject({ ok: false, reason: 'invalid_params' });
  });

  it('maps hub errors to their fixed reason and handler crashes to internal without their text', async () => {
    expect(await server()(good, 'held.approve', { id: 'nope' })).toMatchObject({
      ok: false,
      reason: 'item_not_found',
      message: 'No such item',
    });
    const r = await server()(good, 'desktop.linkCli', {});
    expect(r).toEqual({ ok: false, reason: 'internal', message: 'Internal error' });
    expect(JSON.stringify(r)).not.toContain('EACCES');
    expect(logged.some(([m]) => m === 'IPC handler failed')).toBe(true);
    expect(await server()(good, 'desktop.set', { launchAtLogin: true })).toMatchObject({
      ok: true,
      result: { launchAtLogin: true },
    });
  });
});

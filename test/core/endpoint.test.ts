import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  EndpointError,
  ensurePrivateDir,
  MAX_SOCKET_PATH_BYTES,
  resolveEndpoint,
  sessionSocketPath,
  type EndpointEnv,
} from '../../core/transport/endpoint.js';
import { startHub as startCoreHub, type Hub } from '../../core/index.js';
import { HubRunningError } from '../../core/transport/hub-lock.js';
import { startHub, tempDirs, type TestHub } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

const base: EndpointEnv = { platform: 'linux', env: {}, uid: 1000, user: 'dev', tmpdir: '/tmp', home: '/home/dev' };

describe('endpoint naming', () => {
  it('puts the hub socket in SWITCHBOARD_RUNTIME_DIR, else XDG_RUNTIME_DIR/switchboard, else tmpdir/switchboard-uid', () => {
    expect(resolveEndpoint({ ...base, env: { SWITCHBOARD_RUNTIME_DIR: '/r/sb' } }).hubSocket).toBe('/r/sb/hub.sock');
    expect(resolveEndpoint({ ...base, env: { XDG_RUNTIME_DIR: '/run/user/1000' } }).hubSocket).toBe(
      '/run/user/1000/switchboard/hub.sock',
    );
    expect(resolveEndpoint(base).hubSocket).toBe('/tmp/switchboard-1000/hub.sock');
  });

  it('keeps state in ~/.switchboard unless SWITCHBOARD_HOME names another directory', () => {
    expect(resolveEndpoint(base).stateDir).toBe('/home/dev/.switchboard');
    expect(resolveEndpoint({ ...base, env: { SWITCHBOARD_HOME: '/s' } }).stateDir).toBe('/s');
  });

  it("finds the same hub without XDG_RUNTIME_DIR (agents strip it): the user's own runtime directory, not tmpdir", () => {
    const withVar = resolveEndpoint({ ...base, env: { XDG_RUNTIME_DIR: '/run/user/1000' } });
    const stripped = resolveEndpoint({ ...base, env: {}, userRuntimeDir: '/run/user/1000' });
    expect(stripped.hubSocket).toBe(withVar.hubSocket);
  });

  it('falls back to a short /tmp/sb-<uid>/ directory instead of truncating a long path', () => {
    const long = '/very/' + 'long/'.repeat(15);
    const p = resolveEndpoint({ ...base, env: { SWITCHBOARD_RUNTIME_DIR: long } });
    expect(p.socketDir).toMatch(/^\/tmp\/sb-1000\/[0-9a-f]{8}$/);
    expect(p.runtimeDir).toBe(path.resolve(long));
    const sock = sessionSocketPath(p, '00000000-0000-4000-8000-000000000000');
    expect(Buffer.byteLength(sock)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    // Two different long directories never share a fallback.
    const q = resolveEndpoint({ ...base, env: { SWITCHBOARD_RUNTIME_DIR: long + 'x' } });
    expect(q.socketDir).not.toBe(p.socketDir);
  });

  it('names Windows pipes per user and runtime directory', () => {
    const w = resolveEndpoint({
      ...base,
      platform: 'win32',
      user: 'Jane Doe',
      env: { SWITCHBOARD_RUNTIME_DIR: 'C:\\sb' },
    });
    expect(w.windows).toBe(true);
    expect(w.hubSocket).toMatch(/^\\\\\.\\pipe\\switchboard-Jane_Doe-[0-9a-f]{8}-hub$/);
    expect(sessionSocketPath(w, 'abc')).toMatch(/^\\\\\.\\pipe\\switchboard-Jane_Doe-[0-9a-f]{8}-s-abc$/);
  });
});

describe('runtime directory safety', () => {
  const uid = process.getuid!();
  function privateDir() {
    const d = tempDirs();
    const dir = path.join(d.root, 'a', 'b');
    ensurePrivateDir(dir, uid);
    return { d, dir };
  }

  it('creates a missing directory readable by its owner only (0700)', () => {
    const { dir } = privateDir();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlink to a private directory', () => {
    const { d, dir } = privateDir();
    const link = path.join(d.root, 'link');
    fs.symlinkSync(dir, link);
    expect(() => ensurePrivateDir(link, uid)).toThrow(expect.objectContaining({ code: 'symlink' }));
  });

  it('refuses a directory that others may read (0755)', () => {
    const { d } = privateDir();
    const loose = path.join(d.root, 'loose');
    fs.mkdirSync(loose, { mode: 0o755 });
    fs.chmodSync(loose, 0o755);
    expect(() => ensurePrivateDir(loose, uid)).toThrow(expect.objectContaining({ code: 'loose_mode' }));
  });

  it('refuses a directory that another user owns', () => {
    const { dir } = privateDir();
    expect(() => ensurePrivateDir(dir, uid + 1)).toThrow(expect.objectContaining({ code: 'foreign_owner' }));
  });

  it('a hub refuses to start in a symlinked runtime directory', async () => {
    const d = tempDirs();
    const real = path.join(d.root, 'real');
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync(real, d.runtime);
    await expect(startCoreHub({ endpoint: d.env })).rejects.toBeInstanceOf(EndpointError);
  });
});

describe('the hub socket', () => {
  let th: TestHub | undefined;
  afterEach(async () => {
    await th?.close();
    th = undefined;
  });

  it('is 0600 in a 0700 directory, as are session sockets', async () => {
    th = await startHub();
    expect(fs.statSync(th.hub.paths.hubSocket).mode & 0o777).toBe(0o600);
    expect(fs.statSync(th.hub.paths.socketDir).mode & 0o777).toBe(0o700);
    const c = await th.client();
    const r = await th.register(c);
    const sock = decodeURIComponent(r.address.slice(4));
    expect(fs.statSync(sock).mode & 0o777).toBe(0o600);
  });

  it('only one of two hubs racing to start wins; the other reports the running one', async () => {
    const d = tempDirs();
    const results = await Promise.allSettled([
      startCoreHub({ endpoint: d.env }),
      startCoreHub({ endpoint: d.env }),
      startCoreHub({ endpoint: d.env }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const l of lost) expect(l.reason).toBeInstanceOf(HubRunningError);
    await (won[0] as PromiseFulfilledResult<Hub>).value.close();
  });

  it('replaces a stale socket left by a killed hub, but never a live one or a non-socket', async () => {
    const d = tempDirs();
    fs.mkdirSync(d.runtime, { mode: 0o700 });
    const sock = path.join(d.runtime, 'hub.sock');
    // A process that listens on the socket, then dies by SIGKILL: the file stays.
    const child = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen(${JSON.stringify(sock)}, () => console.log('up'))`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((r) => child.stdout.once('data', r));
    const live = await startCoreHub({ endpoint: d.env }).catch((e: unknown) => e);
    expect(live).toBeInstanceOf(HubRunningError);
    await stopProcess(child, 'SIGKILL');
    expect(fs.lstatSync(sock).isSocket()).toBe(true);
    const hub = await startCoreHub({ endpoint: d.env });
    await hub.close();

    fs.writeFileSync(sock, 'not a socket');
    await expect(startCoreHub({ endpoint: d.env })).rejects.toMatchObject({ code: 'not_socket' });
    expect(fs.readFileSync(sock, 'utf8')).toBe('not a socket');
  });

  it('refuses a stale socket owned by another user', async () => {
    if (process.getuid!() !== 0) return; // needs root to make a foreign-owned file
    const d = tempDirs();
    fs.mkdirSync(d.runtime, { mode: 0o700 });
    const sock = path.join(d.runtime, 'hub.sock');
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(sock, r));
    // Keep the file after close: rename it away and back.
    fs.renameSync(sock, sock + '.keep');
    await new Promise<void>((r) => srv.close(() => r()));
    fs.renameSync(sock + '.keep', sock);
    fs.lchownSync(sock, 65534, 65534);
    await expect(startCoreHub({ endpoint: d.env })).rejects.toMatchObject({ code: 'foreign_socket' });
  });
});

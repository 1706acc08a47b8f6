// `serve --ui` when the UI port is taken. Another program on the
// default port: the UI takes a free port and says which. An explicit --port
// that is taken: a clear failure. A hub that already runs: its UI address
// (without the token, which never leaves that hub's own output).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_UI_PORT } from '../../cli/commands/serve.js';
import { CLI, cliEnv, readyLine, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

/** Listens on 127.0.0.1:port as "another program"; false when someone else already holds it. */
async function hold(port: number): Promise<boolean> {
  const server = net.createServer((s) => s.destroy());
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (ok) stops.push(() => new Promise((r) => server.close(r)));
  return ok;
}

interface Ready {
  ui: string;
  uiToken: string;
  pid: number;
}

/** `serve --json --quiet …` up to its ready line, with stderr collected. */
async function serveUi(
  env: NodeJS.ProcessEnv,
  extra: string[],
): Promise<{ child: ChildProcessWithoutNullStreams; ready: Ready; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--json', '--quiet', ...extra], { env });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  stops.push(() => stopProcess(child));
  const ready = await readyLine<Ready>(child, () => err);
  return { child, ready, stderr: () => err };
}

describe('serve --ui and a taken port', () => {
  it('another program on the default port: the UI takes a free port and prints it', async () => {
    const mine = await hold(DEFAULT_UI_PORT); // false: someone else holds it, which is the same case
    const env = cliEnv(tempDirs());
    const s = await serveUi(env, ['--ui']);
    const port = Number(new URL(s.ready.ui).port);
    if (mine || port !== DEFAULT_UI_PORT) {
      expect(port).not.toBe(DEFAULT_UI_PORT);
      expect(s.stderr()).toContain(
        `127.0.0.1:${DEFAULT_UI_PORT} is in use by another program; the user interface is on port ${port} instead`,
      );
    }
    const res = await fetch(`http://127.0.0.1:${port}/api/sessions.list`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.ready.uiToken}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
  });

  it('an explicit --port that is taken fails clearly and leaves no hub behind', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    stops.push(() => new Promise((r) => blocker.close(r)));
    const port = (blocker.address() as net.AddressInfo).port;
    const env = cliEnv(tempDirs());
    const r = await runCli(['serve', '--ui', '--port', String(port), '--json', '--quiet'], env);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      error: {
        reason: 'ui_port',
        message: `Cannot serve the user interface on 127.0.0.1:${port}: it is in use by another program; choose another --port, or --port 0 for a free one`,
      },
    });
    expect((await runCli(['status'], env)).code).toBe(3);
  });

  it('a second serve --ui names the running UI’s address and pid, never its token', async () => {
    const env = cliEnv(tempDirs());
    const first = await serveUi(env, ['--ui', '--port', '0']);
    const port = new URL(first.ready.ui).port;
    const second = await runCli(['serve', '--ui', '--json'], env);
    expect(second.code).toBe(1);
    const msg = (JSON.parse(second.stdout) as { error: { reason: string; message: string } }).error;
    expect(msg.reason).toBe('hub_running');
    expect(msg.message).toContain(
      `(pid ${first.ready.pid}) and serves the user interface at http://127.0.0.1:${port}/`,
    );
    expect(second.stdout + second.stderr).not.toContain(first.ready.uiToken);
    // hub.info tells any client the port, not the token.
    const info = JSON.parse((await runCli(['status', '--json'], env)).stdout) as Record<string, unknown>;
    expect(info.uiPort).toBe(Number(port));
    expect(JSON.stringify(info)).not.toContain(first.ready.uiToken);
  });

  it('a hub without the UI: serve --ui says so instead of a bare "already running"', async () => {
    const env = cliEnv(tempDirs());
    const first = await serveUi(env, []);
    const second = await runCli(['serve', '--ui'], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`(pid ${first.ready.pid}) without the web user interface`);
  });
});

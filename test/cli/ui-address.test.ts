// Getting back in. `switchboard ui` asks the running hub over its
// private socket for the web UI's URL with the token (the URL `serve --ui`
// printed), `status` shows the UI's address without the token, and a second
// `serve --ui` points at `switchboard ui` instead of "stop the hub". A hub
// without a web UI, and no hub at all, say what to do.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cliEnv, readyLine, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

interface Ready {
  ui?: string;
  uiToken: string;
  pid: number;
}

async function serve(env: NodeJS.ProcessEnv, extra: string[]): Promise<{ ready: Ready; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--json', ...extra], { env });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  stops.push(() => stopProcess(child));
  return { ready: await readyLine<Ready>(child, () => err), stderr: () => err };
}

describe('switchboard ui', () => {
  it('prints the running hub’s sign-in URL, and the token in it opens the API', async () => {
    const env = cliEnv(tempDirs());
    const hub = await serve(env, ['--ui', '--port', '0']);
    const r = await runCli(['ui'], env);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(hub.ready.ui);
    const url = new URL(r.stdout.trim());
    expect(url.hash).toBe(`#token=${hub.ready.uiToken}`);
    const res = await fetch(`${url.origin}/api/sessions.list`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${url.hash.slice('#token='.length)}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);

    // Only over the private socket: the web bridge has no such operation, token or not.
    const bridged = await fetch(`${url.origin}/api/ui.address`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${hub.ready.uiToken}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(bridged.status).toBe(404);

    const json = await runCli(['ui', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ url: hub.ready.ui, port: Number(url.port) });
    // The hub says that it gave the address out, never the token itself.
    expect(hub.stderr()).toContain('sign-in URL was given to a caller on the hub socket');
    expect(hub.stderr()).not.toContain(hub.ready.uiToken);
  });

  it('status shows the UI address without the token; a second serve --ui points at switchboard ui', async () => {
    const env = cliEnv(tempDirs());
    const hub = await serve(env, ['--ui', '--port', '0', '--quiet']);
    const origin = new URL(hub.ready.ui!).origin;
    const status = await runCli(['status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`ui ${origin}/ (sign in with the URL \`switchboard ui\` prints)`);
    expect(status.stdout).not.toContain(hub.ready.uiToken);

    const second = await runCli(['serve', '--ui', '--json'], env);
    expect(second.code).toBe(1);
    const err = (JSON.parse(second.stdout) as { error: { reason: string; message: string } }).error;
    expect(err.reason).toBe('hub_running');
    expect(err.message).toContain(`serves the user interface at ${origin}/ — run \`switchboard ui\``);
    expect(err.message).not.toContain('stop it');
    expect(second.stdout + second.stderr).not.toContain(hub.ready.uiToken);
  });

  it('with no hub at all, says none runs', async () => {
    const none = await runCli(['ui', '--json'], cliEnv(tempDirs()));
    expect(none.code).toBe(3);
    expect(JSON.parse(none.stdout)).toMatchObject({ error: { reason: 'hub_not_running' } });
  });

  it('with a hub that serves no web UI, says how to start one', async () => {
    const env = cliEnv(tempDirs());
    const hub = await serve(env, ['--quiet']);
    const r = await runCli(['ui', '--json'], env);
    expect(r.code).toBe(1);
    const err = (JSON.parse(r.stdout) as { error: { reason: string; message: string } }).error;
    expect(err.reason).toBe('no_ui');
    expect(err.message).toContain('switchboard serve --ui');
    expect(r.stdout).not.toContain(hub.ready.uiToken);
    const status = await runCli(['status'], env);
    expect(status.stdout).not.toMatch(/^ui /m);
  });

  it('takes no arguments (a token never goes in argv)', async () => {
    const env = cliEnv(tempDirs());
    const r = await runCli(['ui', 'open'], env);
    expect(r.code).toBe(2);
  });
});

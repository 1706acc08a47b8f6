// Hostile input against a real `switchboard serve --ui` process on a real
// port: each attack gets its specific answer, and
// afterwards the process is alive, the hub socket still answers, and the web
// UI still serves a well-behaved client. Needs dist/ (`npm run build`).
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import { HubClient } from '../../core/client/client.js';
import { CLI, cliEnv, readyLine } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

interface UiServe {
  child: ChildProcessWithoutNullStreams;
  ready: { socket: string; uiToken: string; ui: string };
  port: number;
  stderr: () => string;
  stop(): Promise<number | null>;
}

let served: UiServe | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

async function serveUi(): Promise<UiServe> {
  const child = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], {
    env: cliEnv(tempDirs()),
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ready = await readyLine<UiServe['ready']>(child, () => err);
  return {
    child,
    ready,
    port: Number(new URL(ready.ui).port),
    stderr: () => err,
    async stop() {
      return (await stopProcess(child)).code;
    },
  };
}

/** Writes raw bytes, then returns everything the server sent until it closed (or 3 s passed). */
function raw(port: number, text: string, opts: { destroyAfterWrite?: boolean } = {}): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => (s.destroy(), resolve(got)), 3000);
    s.on('data', (d: Buffer) => (got += d.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => (clearTimeout(timer), resolve(got)));
    s.write(text, () => {
      if (opts.destroyAfterWrite) s.destroy();
    });
  });
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const get = (sv: UiServe, target: string, headers = ''): Promise<string> =>
  raw(sv.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${sv.port}\r\n${headers}Connection: close\r\n\r\n`);
const bearer = (sv: UiServe): string => `Authorization: Bearer ${sv.ready.uiToken}\r\n`;

/** The process lives, another hub client is answered, and the web UI serves a good request. */
async function stillServing(sv: UiServe): Promise<void> {
  // Requests after the attack's: the hub answers them only if the attack's handling left it running.
  const c = await HubClient.connect(sv.ready.socket);
  try {
    expect((await c.call('hub.info', {})).pid).toBe(sv.child.pid);
  } finally {
    c.close();
  }
  const res = await fetch(`http://127.0.0.1:${sv.port}/api/sessions.list`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sv.ready.uiToken}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(await res.json()).toEqual({ result: { rows: [] } });
  expect(sv.child.exitCode, sv.stderr()).toBeNull();
}

describe('web UI attacks against a real serve --ui', () => {
  // Sent without a token: the target is judged before the token.
  it('a request target no URL parser takes (//[ //%zz //x:99999) is a 400 the hub outlives', async () => {
    served = await serveUi();
    for (const target of ['//[', '//%zz', '//x:99999', 'http://[/', '*']) {
      const answer = await get(served, target);
      expect(statusOf(answer), target).toBe(400);
      expect(answer, target).toContain('"reason":"bad_target"');
    }
    await stillServing(served);
  });

  // Sent with the token, so the escape itself is what is refused.
  it('a malformed percent-escape in a path (/%zz /% /%c0%ae) is a 400 bad_escape the hub outlives', async () => {
    served = await serveUi();
    for (const target of ['/%zz', '/%', '/%c0%ae', '/api/%e0%80', '/%00']) {
      const answer = await get(served, target, bearer(served));
      expect(statusOf(answer), target).toBe(400);
      expect(answer, target).toContain('"reason":"bad_escape"');
    }
    await stillServing(served);
  });

  it('a POST whose client goes away mid-body (a tab closed while saving) ends nothing but that request', async () => {
    served = await serveUi();
    const head = `POST /api/settings.set HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\n${bearer(served)}Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n`;
    for (let i = 0; i < 3; i++)
      expect(await raw(served.port, head + '{"key":"dialogExp', { destroyAfterWrite: true })).toBe('');
    await stillServing(served);
    expect(served.stderr()).not.toMatch(/unhandled|uncaught/i);
  });

  it('malformed HTTP gets 400 (431 for oversized headers) and its socket closed; the hub lives', async () => {
    served = await serveUi();
    expect(statusOf(await raw(served.port, 'NOT HTTP AT ALL\r\n\r\n'))).toBe(400);
    expect(
      statusOf(
        await raw(served.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`),
      ),
    ).toBe(431);
    expect(
      statusOf(
        await raw(
          served.port,
          `GET / HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n`,
        ),
      ),
    ).toBe(400);
    await stillServing(served);
  });

  it('the printed URL keeps the token out of every request, and no answer sets a cookie', async () => {
    served = await serveUi();
    const { ui, uiToken } = served.ready;
    expect(ui).toBe(`http://127.0.0.1:${served.port}/#token=${uiToken}`);
    // What a browser sends for the printed URL: the fragment stays behind.
    const page = await get(served, '/');
    expect(statusOf(page)).toBe(200);
    expect(page).not.toMatch(/set-cookie/i);
    // The old URL form is refused, and it does not trade the token for a cookie any more.
    const old = await get(served, `/?token=${uiToken}`);
    expect(statusOf(old)).toBe(400);
    expect(old).toContain('"reason":"token_in_query"');
    expect(old).not.toMatch(/set-cookie/i);
    // A cookie that another local server received from the browser is worth nothing here.
    const replay = await raw(
      served.port,
      `POST /api/held.list HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nOrigin: http://127.0.0.1:${served.port}\r\nCookie: sb_ui=${uiToken}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(statusOf(replay)).toBe(401);
    await stillServing(served);
  });
});

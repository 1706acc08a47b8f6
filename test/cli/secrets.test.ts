// No secret in argv (another user can read it in ps). Every command path refuses --token/--ui-token
// with a usage error that names the replacement; tokens come from the
// environment, a file only the user can read, or stdin; setup writes hook
// and MCP commands that carry no token.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, pool, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

/** Every command path with the positionals it needs to get as far as its flags. */
const PATHS: string[][] = [
  ['serve'],
  ['status'],
  ['ui'],
  ['service', 'status'],
  ['service', 'install'],
  ['service', 'uninstall'],
  ['session', 'start'],
  ['session', 'state', 'busy'],
  ['session', 'mode', 'plan'],
  ['session', 'rename', 'x'],
  ['session', 'stop'],
  ['agents'],
  ['send'],
  ['inbox'],
  ['held'],
  ['held', 'approve', '1'],
  ['held', 'deny', '1'],
  ['subscriptions'],
  ['subscriptions', 'cancel', '1'],
  ['confirmations'],
  ['confirmations', 'allow', '1'],
  ['confirmations', 'deny', '1'],
  ['rules'],
  ['rules', 'allow'],
  ['rules', 'revoke', '1'],
  ['teams'],
  ['history'],
  ['team', 'show', 't'],
  ['team', 'send'],
  ['tasks'],
  ['task', 'create'],
  ['task', 'update', '1'],
  ['task', 'claim', '1'],
  ['task', 'assign', '1'],
  ['task', 'delete', '1'],
  ['hook', 'post-tool'],
  ['mcp'],
  ['setup', 'claude-code'],
];

describe('secrets never on the command line', () => {
  it('the command list covers every command the help text names', async () => {
    const help = (await runCli(['--help'], cliEnv(tempDirs()))).stdout;
    const named = new Set([...help.matchAll(/^switchboard ([a-z-]+)/gm)].map((m) => m[1]));
    expect([...named].filter((n) => !PATHS.some((p) => p[0] === n))).toEqual([]);
  });

  it('every command path refuses --token and --ui-token (either spelling) with exit 2 and says what to use instead', async () => {
    const env = cliEnv(tempDirs());
    const cases = PATHS.flatMap((p) => [
      { args: [...p, '--token', 'sekrit'], want: /--token is not accepted.*SWITCHBOARD_TOKEN.*--token-file/ },
      { args: [...p, '--ui-token=sekrit'], want: /--ui-token is not accepted.*SWITCHBOARD_UI_TOKEN.*--ui-token-file/ },
    ]);
    const results = await pool(cases, 4, async (c) => ({ c, r: await runCli([...c.args, '--json'], env) }));
    for (const { c, r } of results) {
      expect({ args: c.args, code: r.code }).toEqual({ args: c.args, code: 2 });
      expect(r.stderr).toMatch(c.want);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { reason: 'usage' } });
    }
  });

  it('takes a token from a file only this user can read, from stdin (-) or from the environment', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    const ui = served.ready.uiToken;
    const file = path.join(dirs.root, 'ui-token');
    fs.writeFileSync(file, ui + '\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const open = await runCli(['held', '--ui-token-file', file], env);
    expect(open.code, 'a file others can read is refused').toBe(2);
    expect(open.stderr).toContain('readable by other users (mode 0644); chmod 600 it first');
    fs.chmodSync(file, 0o600);
    expect((await runCli(['held', '--ui-token-file', file], env)).stdout, 'a private file').toContain(
      'No held messages',
    );
    expect((await runCli(['held', '--ui-token-file', '-'], env, 15_000, `${ui}\n`)).stdout, 'stdin').toContain(
      'No held messages',
    );
    expect((await runCli(['held'], { ...env, SWITCHBOARD_UI_TOKEN: ui })).stdout, 'the environment').toContain(
      'No held messages',
    );
    const dir = await runCli(['held', '--ui-token-file', dirs.root], env);
    expect([dir.code, dir.stderr]).toEqual([2, expect.stringContaining('not a regular file')]);
    const missing = await runCli(['held', '--ui-token-file', path.join(dirs.root, 'nope')], env);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('cannot open (ENOENT)')]);
    const empty = await runCli(['held', '--ui-token-file', '-'], env, 15_000, '\n');
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining('expected exactly one token')]);

    const reg = JSON.parse(
      (
        await runCli(
          ['session', 'start', '--cwd', dirs.root, '--name', 'api', '--pid', String(served.child.pid), '--json'],
          env,
        )
      ).stdout,
    ) as { sessionId: string; token: string };
    const tokenFile = path.join(dirs.root, 'api-token');
    fs.writeFileSync(tokenFile, reg.token, { mode: 0o600 });
    expect((await runCli(['inbox', '--session', reg.sessionId, '--token-file', tokenFile], env)).stdout.trim()).toBe(
      'Inbox empty.',
    );
    expect(
      (
        await runCli(
          ['session', 'rename', 'api2', '--session', reg.sessionId, '--token-file', '-'],
          env,
          undefined,
          reg.token,
        )
      ).stdout,
    ).toMatch(/^api2 \[/);
    const noToken = await runCli(['inbox', '--session', reg.sessionId], env);
    expect([noToken.code, noToken.stderr]).toEqual([2, expect.stringContaining('--session needs its token')]);
  });

  it('setup writes hook and MCP commands that carry no token, even with tokens in the environment', async () => {
    const dirs = tempDirs();
    const token = 'f'.repeat(48);
    const env = {
      ...cliEnv(dirs),
      SWITCHBOARD_SESSION: 'sess-1',
      SWITCHBOARD_TOKEN: token,
      SWITCHBOARD_UI_TOKEN: token,
    };
    for (const agent of ['claude-code', 'codex', 'gemini']) expect((await runCli(['setup', agent], env)).code).toBe(0);
    const written = fs
      .readdirSync(dirs.root, { recursive: true })
      .map(String)
      // Node's compile cache (~/.cache/switchboard) holds the CLI's own code, not configuration.
      .filter((f) => !f.startsWith(`.cache${path.sep}`) && fs.statSync(path.join(dirs.root, f)).isFile());
    expect(written.length).toBeGreaterThanOrEqual(4);
    const commands: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) {
        // [node flags…, script, args…]: the flags carry nothing but V8 options.
        const at = v.findIndex((a) => typeof a === 'string' && a.endsWith('switchboard.mjs'));
        if (at >= 0 && v.slice(0, at).every((a) => a === '--no-memory-reducer'))
          commands.push(v.slice(at + 1).join(' '));
        v.forEach(walk);
      } else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
      else if (typeof v === 'string' && v.includes('switchboard.mjs" '))
        commands.push(v.slice(v.indexOf('switchboard.mjs" ') + 17));
      // The hooks' own entry (cli/hook-bin.ts) takes the same arguments after `hook`.
      else if (typeof v === 'string' && v.includes('switchboard-hook.cjs" '))
        commands.push('hook ' + v.slice(v.indexOf('switchboard-hook.cjs" ') + 22));
    };
    for (const f of written) {
      const text = fs.readFileSync(path.join(dirs.root, f), 'utf8');
      expect(text).not.toContain(token);
      expect(text).not.toMatch(/--(ui-)?token/i);
      walk(f.endsWith('.toml') ? parseToml(text) : parseJsonc(text));
    }
    expect(commands.length).toBeGreaterThanOrEqual(3 + 14);
    for (const c of commands)
      expect(c).toMatch(
        /^(hook (session-start|prompt-submit|post-tool|stop|session-end) --agent (claude|codex|gemini)|mcp --agent (claude|codex|gemini))$/,
      );
  });
});

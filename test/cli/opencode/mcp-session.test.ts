// How `switchboard mcp --agent opencode` learns the calling OpenCode
// session: the plugin's argument moves into `_meta` before the MCP SDK sees
// the line (so the tool's schema never has it); credentials are only those
// the plugin of the same OpenCode process wrote; no argument is the
// process's own session; a subagent's empty id is refused.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { moveSessionArg, opencodeCredsFor } from '../../../cli/opencode/mcp-session.js';
import { opencodeCredentialsFile, SESSION_ARG } from '../../../cli/opencode/sessions.js';
import { tempDirs } from '../../helpers/hub.js';

const line = (o: unknown): Buffer => Buffer.from(JSON.stringify(o) + '\n');

describe('moveSessionArg', () => {
  it('moves the session argument of a tools/call into _meta', () => {
    const out = JSON.parse(
      moveSessionArg(
        line({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'switchboard_send', arguments: { to: 'a', [SESSION_ARG]: 'ses_abc' } },
        }),
      ).toString(),
    ) as { params: { arguments: unknown; _meta: unknown } };
    expect(out.params.arguments).toEqual({ to: 'a' });
    expect(out.params._meta).toEqual({ 'switchboard/opencode-session': 'ses_abc' });
  });
  it('leaves every other line byte for byte', () => {
    const other = line({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(moveSessionArg(other)).toBe(other);
    const text = Buffer.from(`not json ${SESSION_ARG}\n`);
    expect(moveSessionArg(text)).toBe(text);
  });
});

describe('opencodeCredsFor', () => {
  it('takes only the credentials the same OpenCode process wrote for that session', async () => {
    const dirs = tempDirs();
    const before = { ...process.env };
    process.env.SWITCHBOARD_HOME = dirs.home;
    process.env.SWITCHBOARD_RUNTIME_DIR = dirs.runtime;
    try {
      const file = opencodeCredentialsFile('ses_one');
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, JSON.stringify({ sessionId: 's1', token: 't1', pid: 4242 }), { mode: 0o600 });
      const own = { sessionId: 'own', token: 'o' };
      const of = (pid: number) => opencodeCredsFor(pid, () => Promise.resolve(own));
      const meta = (ses: string) => ({ _meta: { 'switchboard/opencode-session': ses } });
      expect(await of(4242)(meta('ses_one'))).toEqual({ sessionId: 's1', token: 't1' });
      await expect(of(999)(meta('ses_one'))).rejects.toThrow(/not registered/);
      await expect(of(4242)(meta('ses_two'))).rejects.toThrow(/not registered/);
      await expect(of(4242)(meta(''))).rejects.toThrow(/subagent/);
      expect(await of(4242)({})).toBe(own);
    } finally {
      process.env = before;
    }
  });
});

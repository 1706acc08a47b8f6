// Agent setup through the hub runs as the composition root says
// (HubOptions.setupEnv), not as the hub's own process: the desktop app's hub
// runs inside Electron, whose executable and argv[1] are not node and the
// CLI. Before this, setup.plan in the desktop app wrote Electron's path (or
// failed on a missing argv[1]) into every hook and MCP command.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../../helpers/hub.js';

let t: TestHub | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('setup through the hub', () => {
  it('plans commands with the node and CLI the composition root names', async () => {
    let home = '';
    t = await startHub({
      setupEnv: () => ({
        home,
        env: { PATH: '' },
        node: '/opt/node/bin/node',
        script: '/opt/switchboard/switchboard.mjs',
      }),
    });
    home = path.join(t.dirs.root, 'home-of-user');
    const client = await t.client();
    const r = await client.call('setup.plan', { uiToken: t.hub.uiToken, agent: 'codex' });
    const diff = r.changes.map((c) => c.diff).join('\n');
    expect(r.changes.map((c) => c.file)).toContain(path.join(home, '.codex', 'config.toml'));
    expect(diff).toContain('command = "/opt/node/bin/node"');
    expect(diff).toContain('"/opt/switchboard/switchboard.mjs", "mcp", "--agent", "codex"');
    expect(diff).not.toContain(process.execPath);
  });
});

// The README's test command on a machine without the system programs the
// suites need: it either installs them (with the platform's installer, said
// first) or stops at once with one message naming what to install — before
// building or running anything. Runs the real scripts/test.mjs with a PATH
// that holds only node (and, for the install case, a recording apt-get).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function bareBin(): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-prereqs-'));
  dirs.push(bin);
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  return bin;
}

function runTestCommand(bin: string, extra: Record<string, string> = {}) {
  const env: Record<string, string> = { PATH: bin, HOME: os.homedir(), SWITCHBOARD_PREREQS_PATH_ONLY: '1', ...extra };
  return spawnSync(process.execPath, ['scripts/test.mjs', '--prereqs-only'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm test on a machine without chromium, nats-server, tmux, unshare', () => {
  it('stops at once with one message naming each program and how to install it', () => {
    const r = runTestCommand(bareBin(), { SWITCHBOARD_NO_INSTALL: '1' });
    expect(r.status).toBe(1);
    const message = r.stderr.trim();
    for (const name of ['chromium', 'nats-server', 'tmux', 'ip (', 'unshare']) expect(message).toContain(name);
    expect(message).toContain(
      'apt-get install -y --no-install-recommends chromium nats-server tmux iproute2 util-linux',
    );
    expect(message).not.toMatch(/\n\s+at /); // no stack trace
    expect(message).not.toContain('▶'); // nothing was built or run
    expect(message.split('npm test needs').length).toBe(2); // one message
  });

  it('without the interop suites it asks only for what the rest needs', () => {
    const r = runTestCommand(bareBin(), { SWITCHBOARD_NO_INSTALL: '1', SWITCHBOARD_SKIP_INTEROP: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('chromium');
    expect(r.stderr).not.toContain('tmux');
  });

  it.skipIf(process.getuid?.() !== 0 || process.platform !== 'linux')(
    'as root with apt-get, says what it installs and installs it',
    () => {
      const bin = bareBin();
      const log = path.join(bin, 'apt.log');
      // A recording apt-get that "installs" by creating the programs on PATH.
      const fake = `#!/bin/sh\necho "$@" >> ${log}\nif [ "$1" = install ]; then for p in chromium nats-server tmux ip unshare; do printf '#!/bin/sh\\n' > ${bin}/$p; /bin/chmod +x ${bin}/$p; done; fi\n`;
      fs.writeFileSync(path.join(bin, 'apt-get'), fake, { mode: 0o755 });
      const r = runTestCommand(bin);
      expect(r.stderr).toContain('installing chromium nats-server tmux iproute2 util-linux with apt-get');
      expect(fs.readFileSync(log, 'utf8')).toMatch(
        /^update -qq\ninstall -y -qq --no-install-recommends chromium nats-server tmux iproute2 util-linux\n$/,
      );
      expect(r.status).toBe(0);
      expect(r.stderr).toContain('every system program the suites need is here');
    },
  );

  it('refuses a Node older than 22.13 with the reason, before anything else', () => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `import('./scripts/toolchain.mjs').then((m) => console.log(JSON.stringify([m.supportedNode('v20.20.2'), m.supportedNode('v22.12.0'), m.supportedNode('v22.13.0'), m.supportedNode('v24.1.0')])))`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const [v20, v2212, v2213, v24] = JSON.parse(r.stdout) as (string | null)[];
    expect(v20).toContain('needs Node 22.13+');
    expect(v2212).toContain('needs Node 22.13+');
    expect(v2213).toBeNull();
    expect(v24).toBeNull();
  });
});

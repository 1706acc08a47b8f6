// Which processes count as an open Codex window for a thread (codex-windows.ts),
// with a scripted /proc: only this user's TUIs (not the daemon, not `codex exec`)
// working in the session's folder (their cwd or their -C/--cd) under the same CODEX_HOME.
import { describe, expect, it } from 'vitest';
import { codexWindows, recentCodexWindows, type ProcReader } from '../../../core/wake/codex-windows.js';

interface P {
  argv: string[];
  cwd: string;
  env?: Record<string, string>;
  uid?: number;
}

const me = process.getuid?.() ?? 0;
const procOf = (ps: P[]): ProcReader => ({
  pids: () => ps.map((_, i) => i + 1),
  argv: (pid) => ps[pid - 1]?.argv,
  cwd: (pid) => ps[pid - 1]?.cwd,
  environ: (pid) => ps[pid - 1]?.env ?? { HOME: '/home/u' },
  uid: (pid) => ps[pid - 1]?.uid ?? me,
});
const HOME = '/home/u/.codex';
const count = (ps: P[], cwd = '/w/project'): number | undefined =>
  codexWindows(HOME, cwd, '/fallback/.codex', procOf(ps));

describe('open Codex windows', () => {
  it('counts a TUI in the folder, with or without a prompt or options', () => {
    expect(count([{ argv: ['/usr/bin/codex'], cwd: '/w/project' }])).toBe(1);
    expect(count([{ argv: ['codex', 'fix the bug'], cwd: '/w/project' }])).toBe(1);
    expect(count([{ argv: ['codex', '--cd', 'project'], cwd: '/w' }])).toBe(1);
    expect(count([{ argv: ['codex', '-C', '/w/project'], cwd: '/' }])).toBe(1);
    expect(count([{ argv: ['codex', '--cd=../project'], cwd: '/w/other' }])).toBe(1);
  });

  it.each([
    ['the daemon', { argv: ['/x/codex', 'app-server', '--listen', 'unix://'], cwd: '/w/project' }],
    ['codex exec', { argv: ['codex', 'exec', 'hello'], cwd: '/w/project' }],
    ['the npm wrapper', { argv: ['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js'], cwd: '/w/project' }],
    ['a window in another folder', { argv: ['codex'], cwd: '/w/elsewhere' }],
    ["another user's window", { argv: ['codex'], cwd: '/w/project', uid: me + 1 }],
    ['a window of another CODEX_HOME', { argv: ['codex'], cwd: '/w/project', env: { CODEX_HOME: '/other/home' } }],
  ])('does not count %s', (_what, p) => {
    expect(count([p])).toBe(0);
  });

  it('says "cannot tell" where the process list cannot be read', () => {
    expect(codexWindows(HOME, '/w', '/f', { ...procOf([]), pids: () => undefined })).toBeUndefined();
  });

  it('reuses an answer for a second per folder, so a flood of messages scans /proc once a second', () => {
    let scans = 0;
    let t = 0;
    const proc: ProcReader = {
      ...procOf([{ argv: ['codex'], cwd: '/w/flood' }]),
      pids: () => (scans++, [1]),
    };
    for (let i = 0; i < 100; i++) expect(recentCodexWindows(HOME, '/w/flood', '/f', proc, () => t)).toBe(1);
    expect(scans).toBe(1);
    t = 999;
    recentCodexWindows(HOME, '/w/flood', '/f', proc, () => t);
    expect(scans).toBe(1);
    t = 1000;
    recentCodexWindows(HOME, '/w/flood', '/f', proc, () => t);
    expect(scans, 'a second later it looks again').toBe(2);
  });
});

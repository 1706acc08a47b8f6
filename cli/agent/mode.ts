// The agent's permission mode as far as the agent exposes it. Hook input is
// the truth where it has `permission_mode` (Claude Code, Codex). Otherwise
// the agent's command line: flags that fix a mode for the whole process
// (Claude Code --dangerously-skip-permissions / --permission-mode, Codex
// --dangerously-bypass-approvals-and-sandbox / --yolo / -a never, Gemini
// --yolo / --approval-mode yolo). Anything else is unknown, and the hub then
// fails closed; Gemini can switch to YOLO at run time (Ctrl+Y) without
// telling hooks, so only its YOLO start is ever known. Pure but for argvOf.

import { createRequire } from 'node:module';
import fs from 'node:fs';
import { asPermissionMode, type PermissionModeName } from '../../core/protocol/vocabulary.js';
import type { AgentKind } from './identity.js';

const MAX_CMDLINE = 64 * 1024;

/** The agent process's arguments (Linux /proc, macOS ps), or undefined. */
export function argvOf(pid: number): string[] | undefined {
  try {
    if (process.platform === 'linux') {
      const raw = fs.readFileSync(`/proc/${pid}/cmdline`);
      if (raw.length === 0 || raw.length > MAX_CMDLINE) return undefined;
      return raw
        .toString('utf8')
        .split('\0')
        .filter((a) => a !== '');
    }
    if (process.platform === 'darwin') {
      const cp = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
      const out = cp
        .execFileSync('ps', ['-ww', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 })
        .trim();
      return out === '' ? undefined : out.split(/\s+/);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The value of `--name v`, `--name=v` (or a short alias) in argv. */
function flagValue(argv: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    for (const n of names) {
      if (a === n) return argv[i + 1];
      if (a.startsWith(`${n}=`)) return a.slice(n.length + 1);
    }
  }
  return undefined;
}

const has = (argv: readonly string[], ...flags: string[]): boolean => argv.some((a) => flags.includes(a));

/**
 * Whether the agent's command line makes bypassing prompts reachable at run time (Claude Code:
 * Shift+Tab reaches bypassPermissions only with one of these flags); plan mode then classes as bypass.
 */
export function bypassAvailableFromArgv(agent: AgentKind, argv: readonly string[]): boolean {
  return agent === 'claude' && has(argv, '--allow-dangerously-skip-permissions', '--dangerously-skip-permissions');
}

/** The mode fixed by the agent's command line, or undefined when it does not fix one. */
export function modeFromArgv(agent: AgentKind, argv: readonly string[]): PermissionModeName | undefined {
  switch (agent) {
    case 'claude':
      if (has(argv, '--dangerously-skip-permissions')) return 'bypassPermissions';
      return asPermissionMode(flagValue(argv, ['--permission-mode']));
    case 'codex':
      if (has(argv, 'app-server')) return undefined; // one daemon, many threads with their own modes
      if (has(argv, '--dangerously-bypass-approvals-and-sandbox', '--yolo')) return 'bypassPermissions';
      if (flagValue(argv, ['--ask-for-approval', '-a']) === 'never') return 'bypassPermissions';
      return undefined;
    case 'gemini': {
      if (has(argv, '--yolo', '-y')) return 'bypassPermissions';
      return flagValue(argv, ['--approval-mode']) === 'yolo' ? 'bypassPermissions' : undefined;
    }
    case 'qwen': {
      // Its start mode (Shift+Tab and /approval-mode change it later; its hooks report each change).
      if (has(argv, '--yolo', '-y')) return 'bypassPermissions';
      const m = flagValue(argv, ['--approval-mode']);
      if (m === 'default' || m === 'plan') return m;
      return m === 'auto-edit' || m === 'auto' || m === 'yolo' ? 'bypassPermissions' : undefined;
    }
    case 'opencode': // no flag fixes it; its plugin reports the mode from OpenCode's own configuration
    case 'other':
      return undefined;
    default: {
      const never: never = agent;
      return never;
    }
  }
}

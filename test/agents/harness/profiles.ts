// Per agent: the first-run state a fresh HOME needs so nothing asks the
// network or a person (onboarding, API key, auth type, model provider), the
// folder trust for a working directory, and the headless command line with
// its environment (model base URL pointing at the loopback forwarder, fake
// key, no telemetry or updates). Switchboard's own entries are NOT written
// here: `switchboard setup` writes them, as a user would run it.

import fs from 'node:fs';
import path from 'node:path';
import { agentCommand, PINNED, type AgentName } from './binaries.js';
import { MODEL_PORT } from './launch.js';

/**
 * How the agent is started: with its prompting mode named by a flag, with its
 * skip-all-approvals flag, or with no permission flag at all (as most people
 * type `claude`; what it then runs in is the agent's own default).
 */
export type ModeName = 'default' | 'bypass' | 'none';

/**
 * Whether the hub can know the agent's mode in `mode`: Gemini's hooks report
 * none and YOLO can be switched on unseen, so only its YOLO start is known;
 * otherwise "mode unknown", which receives as bypass and sends unclassed.
 */
export function modeKnown(agent: AgentName, mode: ModeName): boolean {
  return !(agent === 'gemini' && mode !== 'bypass');
}

/** One stream-json user turn for Claude Code's stdin. */
export function streamTurn(text: string): string {
  return JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } });
}

/**
 * The mode the hub knows for the agent started this way, from its first prompt on (undefined: it cannot
 * know). With no flag, a headless Claude Code runs in `default`; `codex exec` always runs with approval
 * "never", which its hooks report as bypassPermissions.
 */
export function expectedMode(agent: AgentName, mode: ModeName): 'default' | 'bypassPermissions' | undefined {
  if (!modeKnown(agent, mode)) return undefined;
  return mode === 'bypass' || (agent === 'codex' && mode === 'none') ? 'bypassPermissions' : 'default';
}

/** For test titles: how the agent was started, when that is without a permission flag. */
export function flagNote(mode: ModeName): string {
  return mode === 'none' ? ' (no permission flag)' : '';
}

/** A peer that sends to this agent without being held by mode parity needs the bypass class. */
export function receivesAsBypass(agent: AgentName, mode: ModeName): boolean {
  return expectedMode(agent, mode) !== 'default';
}

export interface RunOptions {
  prompt: string;
  /** The agent's own permission mode: its default, or its skip-all-approvals mode. */
  mode?: ModeName;
  cwd?: string;
  /** Claude Code only: write its debug log there (`--debug-file`), e.g. to read how it stopped its MCP servers. */
  debugFile?: string;
  /** Claude Code only: turns come as stream-json user messages on stdin (one process, several turns). */
  streamInput?: boolean;
  /** Resume this conversation (its id, as the agent's hooks report it) instead of starting a new one. */
  resume?: string;
  /** Codex only: false leaves its hooks untrusted (no `--dangerously-bypass-hook-trust`), as before a person reviews them. */
  trustHooks?: boolean;
}

export interface Profile {
  seed(home: string): void;
  trust(home: string, cwd: string): void;
  headless(o: RunOptions & { cwd: string }): { argv: string[]; env: Record<string, string> };
  /** The agent's own check of its MCP configuration, and what it prints when ours is accepted and connects. */
  configCheck: { args: string[]; accepted: RegExp };
}

const BASE = `http://127.0.0.1:${MODEL_PORT}`;
export const FAKE_KEYS = {
  claude: 'sk-ant-test-000',
  codex: 'sk-fake-openai-000',
  gemini: 'fake-gemini-key-000',
} as const;

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
}

const claude: Profile = {
  configCheck: { args: ['mcp', 'list'], accepted: /^switchboard: .*[✓✔] Connected/m },
  seed(home) {
    const file = path.join(home, '.claude.json');
    const c = readJson(file);
    writeJson(file, {
      ...c,
      hasCompletedOnboarding: true,
      lastOnboardingVersion: PINNED.claude,
      customApiKeyResponses: { approved: [FAKE_KEYS.claude.slice(-20)], rejected: [] },
      projects: c.projects ?? {},
    });
    const settings = path.join(home, '.claude', 'settings.json');
    // Claude Code registers its claude-cli:// handler at start (xdg-mime, then `mv mimeapps.list`): a process
    // of its own, at a time of its choosing, which would show up in a count of what a turn spawns.
    if (!fs.existsSync(settings)) writeJson(settings, { theme: 'dark', disableDeepLinkRegistration: 'disable' });
  },
  trust(home, cwd) {
    const file = path.join(home, '.claude.json');
    const c = readJson(file);
    const projects = (c.projects ?? {}) as Record<string, Record<string, unknown>>;
    projects[cwd] = { ...(projects[cwd] ?? {}), hasTrustDialogAccepted: true };
    writeJson(file, { ...c, projects });
  },
  headless(o) {
    // --allowedTools is a rule, not a mode: headless, a tool that would ask is refused, and a person would allow ours.
    const mode =
      o.mode === 'bypass'
        ? ['--permission-mode', 'bypassPermissions']
        : o.mode === 'none'
          ? ['--allowedTools', 'mcp__switchboard']
          : ['--permission-mode', 'default', '--allowedTools', 'mcp__switchboard'];
    return {
      argv: [
        ...agentCommand('claude'),
        ...(o.streamInput
          ? ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose']
          : ['-p', o.prompt]),
        ...mode,
        ...(o.debugFile ? ['--debug-file', o.debugFile] : []),
        ...(o.resume !== undefined ? ['--resume', o.resume] : []),
      ],
      env: {
        ANTHROPIC_BASE_URL: BASE,
        ANTHROPIC_API_KEY: FAKE_KEYS.claude,
        CLAUDE_CODE_MAX_RETRIES: '0',
        IS_SANDBOX: '1', // run as root in a private namespace: Claude Code refuses bypassPermissions for root otherwise
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
        CLAUDE_CODE_DISABLE_BG_EXIT_HANDOFF: '1',
      },
    };
  },
};

const CODEX_PROVIDER = [
  'model = "gpt-fake"',
  'model_provider = "scripted"',
  '',
  '[model_providers.scripted]',
  'name = "scripted"',
  `base_url = "${BASE}/v1"`,
  'wire_api = "responses"',
  'env_key = "SCRIPTED_OPENAI_KEY"',
  'request_max_retries = 0',
  'stream_max_retries = 0',
  '',
].join('\n');

const codex: Profile = {
  configCheck: { args: ['mcp', 'list'], accepted: /^switchboard\s.*enabled/m },
  seed(home) {
    const file = path.join(home, '.codex', 'config.toml');
    if (fs.existsSync(file)) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, CODEX_PROVIDER);
  },
  trust(home, cwd) {
    const file = path.join(home, '.codex', 'config.toml');
    const table = `[projects.${JSON.stringify(cwd)}]`;
    if (!fs.readFileSync(file, 'utf8').includes(table))
      fs.appendFileSync(file, `\n${table}\ntrust_level = "trusted"\n`);
  },
  headless(o) {
    // A person would review the new hooks once in /hooks and allow the tool calls when asked:
    // headless, the first is --dangerously-bypass-hook-trust, the second the server's approval mode.
    // `codex exec` always runs with approval "never" (its hooks report bypassPermissions), so `default` only keeps the sandbox.
    const mode =
      o.mode === 'bypass'
        ? ['--dangerously-bypass-approvals-and-sandbox']
        : ['-c', 'mcp_servers.switchboard.default_tools_approval_mode="approve"'];
    return {
      argv: [
        ...agentCommand('codex'),
        'exec',
        '--skip-git-repo-check',
        ...(o.trustHooks === false ? [] : ['--dangerously-bypass-hook-trust']),
        ...mode,
        ...(o.resume !== undefined ? ['resume', o.resume] : []),
        o.prompt,
      ],
      env: { SCRIPTED_OPENAI_KEY: FAKE_KEYS.codex, CODEX_DISABLE_UPDATE_CHECK: '1' },
    };
  },
};

const gemini: Profile = {
  configCheck: { args: ['mcp', 'list'], accepted: /switchboard.*Connected/ },
  seed(home) {
    const file = path.join(home, '.gemini', 'settings.json');
    if (fs.existsSync(file)) return;
    writeJson(file, {
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    });
  },
  trust(home, cwd) {
    const file = path.join(home, '.gemini', 'trustedFolders.json');
    writeJson(file, { ...readJson(file), [cwd]: 'TRUST_FOLDER' });
  },
  headless(o) {
    return {
      // Headless, Gemini drops every tool that would ask; a person would allow Switchboard's when asked.
      argv: [
        ...agentCommand('gemini'),
        '-p',
        o.prompt,
        ...(o.resume !== undefined ? ['--resume', o.resume] : []),
        ...(o.mode === 'bypass'
          ? ['--approval-mode', 'yolo']
          : o.mode === 'none'
            ? ['--allowed-tools', 'mcp_switchboard_*']
            : ['--approval-mode', 'default', '--allowed-tools', 'mcp_switchboard_*']),
      ],
      env: { GEMINI_API_KEY: FAKE_KEYS.gemini, GOOGLE_GEMINI_BASE_URL: BASE, GEMINI_CLI_NO_RELAUNCH: 'true' },
    };
  },
};

export const PROFILES: Record<AgentName, Profile> = { claude, codex, gemini };

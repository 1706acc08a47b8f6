// The command hooks' own entry (`node switchboard-hook.cjs <event> --agent …`): the
// smallest first module, one CommonJS file with only the hook path (no CLI
// dispatcher, no ES module loader, no zod), so a hook on every tool call
// starts as little as Node can. Same behaviour as `switchboard hook`. A
// post-tool hook whose session the hub marked quiet (nothing to hand over)
// exits after a few file reads; everything else loads the full hook lazily.
// On a Node older than node-gate.ts allows it does nothing but write that
// refusal on stderr and exit 0, like every other hook failure (exit 2 would
// block the agent; any other code is an error on every tool call). The check
// runs before any hook code does: the modules imported below only define
// functions and constants when they load.
import { unsupportedNode } from './node-gate.js';
import type { Ctx } from './common.js';
import { postToolHasNothingToDo } from './agent/quiet-check.js';
import { readStdinSync } from './agent/stdin.js';

const ctx: Ctx = {
  json: false,
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
};
const AGENT_KINDS: readonly string[] = ['claude', 'codex', 'gemini', 'qwen'];

/** The agent of `post-tool [--agent X | --agent=X]`, else undefined (the full hook parses and reports). */
function postToolAgent(args: string[]): 'claude' | 'codex' | 'gemini' | 'qwen' | undefined {
  if (args[0] !== 'post-tool') return undefined;
  const rest = args.slice(1);
  const value = rest.length === 0 ? 'claude' : rest.length === 1 ? /^--agent=(.*)$/.exec(rest[0]!)?.[1] : undefined;
  const agent = value ?? (rest.length === 2 && rest[0] === '--agent' ? rest[1] : undefined);
  return agent !== undefined && AGENT_KINDS.includes(agent)
    ? (agent as 'claude' | 'codex' | 'gemini' | 'qwen')
    : undefined;
}

function fail(err: unknown): void {
  process.stderr.write(`switchboard hook: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 0; // never break the agent
}

function main(): void {
  const args = process.argv.slice(2);
  let stdin: string | undefined;
  const agent = postToolAgent(args);
  if (agent !== undefined) {
    try {
      stdin = readStdinSync();
    } catch (err) {
      fail(err);
      return;
    }
    if (postToolHasNothingToDo(agent, stdin)) return;
  }
  import('./commands/hook.js')
    .then((m) => m.hook(args, ctx, stdin))
    .then((code) => {
      process.exitCode = code;
    }, fail);
}

const refusal = unsupportedNode(process.versions.node);
if (refusal === null) main();
else process.stderr.write(refusal + '\n'); // exit code 0

// The command hooks' own entry (`node switchboard-hook.cjs <event> --agent …`): the
// smallest first module, one CommonJS file with only the hook path (no CLI
// dispatcher, no ES module loader, no zod), so a hook on every tool call
// starts as little as Node can. Same behaviour as `switchboard hook`.
import { hook } from './commands/hook.js';
import type { Ctx } from './common.js';

const ctx: Ctx = {
  json: false,
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
};

hook(process.argv.slice(2), ctx).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`switchboard hook: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 0; // never break the agent
  },
);

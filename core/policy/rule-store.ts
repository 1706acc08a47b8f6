// The "always" rules on disk: `<state dir>/rules.json`, `{"version":1,
// "rules":[…]}`, 0600, replaced atomically. Read once at start with a
// bounded schema; a rule a later version added fields to keeps its known
// ones. A file that does not parse, or has a version we do not know, is
// never overwritten: the hub says why and refuses new "always" rules until
// the person moves it away (hour and session rules still work).

import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { replaceFileSync } from '../storage/atomic-write.js';
import { AGENT_KINDS } from '../protocol/vocabulary.js';
import { RULE_EFFECTS, RuleBook, type Rule } from './rules.js';

export const RULES_FILE_VERSION = 1;
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_RULES = 1000;

const Text = z.string().min(1).max(4096);
const End = z.object({ name: Text, sessionId: z.null(), agent: z.enum(AGENT_KINDS), cwd: Text });
const StoredRule = z.object({
  id: z.string().min(1).max(64),
  effect: z.enum(RULE_EFFECTS),
  lifetime: z.literal('always'),
  from: End,
  to: End,
  madeWith: z.string().max(64),
  createdAt: z.number().int().nonnegative(),
  expiresAt: z.null(),
  decided: z.number().int().nonnegative(),
  lastDecidedAt: z.number().int().nonnegative().nullable(),
});
const RulesFile = z.object({ version: z.number().int(), rules: z.array(z.unknown()).max(MAX_RULES) });

export interface RuleStore {
  /** The rules read at start. */
  rules: Rule[];
  /** Why the file cannot be used (then it is left as it is), or null. */
  problem: string | null;
  save(rules: Rule[]): void;
}

export function openRuleStore(stateDir: string, warn: (msg: string) => void): RuleStore {
  const file = path.join(stateDir, 'rules.json');
  const read = (): { rules: Rule[]; problem: string | null } => {
    let text: string;
    try {
      if (fs.statSync(file).size > MAX_FILE_BYTES) return { rules: [], problem: `${file} is over 1 MiB` };
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? { rules: [], problem: null } : { rules: [], problem: `${file}: ${String(err)}` };
    }
    let parsed: z.infer<typeof RulesFile>;
    try {
      parsed = RulesFile.parse(JSON.parse(text));
    } catch {
      return { rules: [], problem: `${file} is not a rules file Switchboard can read` };
    }
    if (parsed.version !== RULES_FILE_VERSION)
      return { rules: [], problem: `${file} has version ${parsed.version}; this Switchboard reads version 1` };
    const rules: Rule[] = [];
    for (const r of parsed.rules) {
      const ok = StoredRule.safeParse(r);
      if (ok.success) rules.push(ok.data);
      else warn(`a rule in ${file} was left out: it is not one this Switchboard knows`);
    }
    return { rules, problem: null };
  };
  const { rules, problem } = read();
  if (problem !== null) warn(`always-rules are off: ${problem}; move it away to make new ones`);
  return {
    rules,
    problem,
    save(next) {
      if (problem !== null) throw new Error(`always-rules are off: ${problem}`);
      fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      replaceFileSync(file, JSON.stringify({ version: RULES_FILE_VERSION, rules: next }, null, 2) + '\n', 0o600);
    },
  };
}

/** The person's rules, the "always" ones read back from the state directory and written there on each change; `problem` says why they are off. */
export function openRuleBook(
  stateDir: string,
  clock: { now(): number },
  log: { warn(msg: string): void },
): { rules: RuleBook; problem: string | null } {
  const store = openRuleStore(stateDir, (msg) => log.warn(msg));
  const now = (): number => clock.now();
  const rules = new RuleBook({ now, restored: store.rules, persist: (always) => store.save(always) });
  return { rules, problem: store.problem };
}

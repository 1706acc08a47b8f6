// OpenCode's permission configuration mapped to Switchboard's classes
// (docs/decisions.md): prompting only when `edit` and `bash` always ask or
// are denied; anything that runs them without asking is bypass; a rule this
// cannot read is unknown (undefined), which the hub treats fail-closed.
import { describe, expect, it } from 'vitest';
import { opencodeMode } from '../../../cli/opencode/mode.js';

const mode = (config: unknown, argv: string[] = [], env: Record<string, string> = {}): unknown =>
  opencodeMode(config, argv, env);

describe('opencodeMode', () => {
  it('no rules: OpenCode asks for nothing, which is bypass', () => {
    expect(mode({})).toBe('bypassPermissions');
    expect(mode(undefined)).toBe('bypassPermissions');
  });
  it('edit and bash asking (or denied) is prompting', () => {
    expect(mode({ permission: { edit: 'ask', bash: 'ask' } })).toBe('default');
    expect(mode({ permission: 'ask' })).toBe('default');
    expect(mode({ permission: { '*': 'ask', edit: 'deny' } })).toBe('default');
    expect(mode({ permission: { edit: 'ask', bash: { '*': 'ask', 'rm *': 'deny' } } })).toBe('default');
  });
  it('any pattern that runs without asking is bypass', () => {
    expect(mode({ permission: { edit: 'ask', bash: { '*': 'ask', 'git status': 'allow' } } })).toBe(
      'bypassPermissions',
    );
    expect(mode({ permission: { edit: 'ask' } })).toBe('bypassPermissions'); // bash: OpenCode's default, allow
  });
  it('the default agent’s own rules come first, then OPENCODE_PERMISSION, then the configuration', () => {
    const cfg = { permission: 'ask', agent: { build: { permission: { bash: 'allow' } } } };
    expect(mode(cfg)).toBe('bypassPermissions');
    expect(mode({ ...cfg, default_agent: 'plan' })).toBe('default');
    expect(mode({ permission: 'allow' }, [], { OPENCODE_PERMISSION: '"ask"' })).toBe('default');
    expect(mode({ permission: 'ask' }, [], { OPENCODE_PERMISSION: '{"edit":"allow"}' })).toBe('bypassPermissions');
  });
  it('`run --auto` approves every ask: bypass', () => {
    expect(mode({ permission: 'ask' }, ['opencode', 'run', '--auto'])).toBe('bypassPermissions');
  });
  it('what it cannot read is unknown', () => {
    expect(mode({ permission: { edit: 'sometimes', bash: 'ask' } })).toBeUndefined();
    expect(mode({ permission: 7 })).toBeUndefined();
    expect(mode('not an object')).toBeUndefined();
    expect(mode({}, [], { OPENCODE_PERMISSION: '{not json' })).toBeUndefined();
  });
});

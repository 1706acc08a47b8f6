// Qwen Code's permission modes as Switchboard reads them: its hooks'
// `permission_mode` (default, plan, auto_edit, auto, yolo) and its start
// flags, onto our classes as Qwen Code's own gate counts them (default and
// plan prompt; auto-edit, auto and yolo bypass). An unknown value is no mode.
import { describe, expect, it } from 'vitest';
import { parseHookInput } from '../../cli/agent/dialects.js';
import { modeFromArgv } from '../../cli/agent/mode.js';

const input = (mode: unknown): string => JSON.stringify({ session_id: 's1', cwd: '/w', permission_mode: mode });

describe('Qwen Code modes', () => {
  it('maps its hooks’ permission_mode onto ours by its own parity classes', () => {
    const got = Object.fromEntries(
      ['default', 'plan', 'auto_edit', 'auto', 'yolo'].map((m) => [m, parseHookInput(input(m), 'qwen').permissionMode]),
    );
    expect(got).toEqual({
      default: 'default',
      plan: 'plan',
      auto_edit: 'bypassPermissions',
      auto: 'bypassPermissions',
      yolo: 'bypassPermissions',
    });
  });

  it('reads a mode it does not know, or Claude Code’s names, as no mode', () => {
    for (const m of ['bypassPermissions', 'acceptEdits', 'AUTO', 'constructor'])
      expect(parseHookInput(input(m), 'qwen').permissionMode).toBeUndefined();
  });

  it('leaves the other agents’ modes as they are (Claude Code’s auto stays auto)', () => {
    expect(parseHookInput(input('auto'), 'claude').permissionMode).toBe('auto');
  });

  it('takes the start mode from --approval-mode, --yolo and -y', () => {
    const m = (...argv: string[]) => modeFromArgv('qwen', ['node', 'cli.js', ...argv]);
    expect(m('--approval-mode', 'default')).toBe('default');
    expect(m('--approval-mode=plan')).toBe('plan');
    for (const flag of [
      ['--approval-mode', 'auto-edit'],
      ['--approval-mode', 'auto'],
      ['--approval-mode', 'yolo'],
      ['--yolo'],
      ['-y'],
    ])
      expect(m(...flag)).toBe('bypassPermissions');
    expect(m()).toBeUndefined(); // its settings decide (default: auto), unseen on the command line
  });
});

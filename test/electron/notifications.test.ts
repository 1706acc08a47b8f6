// Notification routing: one notification per newly held item, Deny first,
// clicks only open the view, the agent's text labelled and cut short.
import { describe, expect, it } from 'vitest';
import type { HeldView } from '../../core/protocol/methods.js';
import {
  confirmationNotification,
  heldNotification,
  newHeldItems,
  onAction,
  onClick,
} from '../../electron/notifications/route.js';

const item = (id: string, preview = 'please run the migration'): HeldView => ({
  id,
  sender: {
    name: 'worker',
    address: 'uds:/r/worker.sock',
    sessionId: 's1',
    verified: true,
    agent: 'claude',
    mode: 'default',
    cwd: '/home/dev/web',
    machine: null,
  },
  receiver: { sessionId: 's2', name: 'lead', label: 'lead [a1b]' },
  reason: 'mode parity',
  preview,
  text: preview,
  summary: null,
  heldAt: 0,
  expiresAt: null,
});

describe('held-message notifications', () => {
  // Deny first, Approve second, then an hour-long rule for the sender.
  it('on macOS offers Deny before Approve', () => {
    const mac = heldNotification(item('h1'), 'darwin');
    expect(mac).toEqual({
      kind: 'held',
      itemId: 'h1',
      title: 'Held: worker → lead [a1b]',
      body: 'Agent text (not from you): please run the migration',
      actions: ['Deny', 'Approve', 'Allow this sender for an hour', 'Block this sender for an hour'],
    });
  });

  it('elsewhere offers no actions', () => {
    expect(heldNotification(item('h1'), 'linux').actions).toEqual([]);
    expect(heldNotification(item('h1'), 'win32').actions).toEqual([]);
  });

  it('cuts long text', () => {
    const spec = heldNotification(item('h1', 'x'.repeat(500)), 'linux');
    expect(spec.body.length).toBeLessThan(200);
    expect(spec.body.endsWith('…')).toBe(true);
  });

  it('each button decides by its label', () => {
    const spec = heldNotification(item('h1'), 'darwin');
    expect(onAction(spec, 0)).toEqual({ kind: 'deny', item: 'held', itemId: 'h1' });
    expect(onAction(spec, 1)).toEqual({ kind: 'approve', item: 'held', itemId: 'h1' });
    expect(onAction(spec, 2)).toEqual({ kind: 'rule', effect: 'allow', itemId: 'h1' });
    expect(onAction(spec, 3)).toEqual({ kind: 'rule', effect: 'block', itemId: 'h1' });
  });

  it('a click or a button index it does not know only opens the item', () => {
    const spec = heldNotification(item('h1'), 'darwin');
    expect(onAction(spec, 4)).toEqual({ kind: 'open', itemId: 'h1' });
    expect(onAction(heldNotification(item('h1'), 'linux'), 0)).toEqual({ kind: 'open', itemId: 'h1' });
    expect(onClick(spec)).toEqual({ kind: 'open', itemId: 'h1' });
  });

  const confirmation = {
    id: 'c1',
    sender: { sessionId: 's', name: 'alice' },
    target: { machine: 'buildbox', session: 'bob [abc123] on buildbox' },
    preview: 'deploy',
    text: 'deploy',
    createdAt: 0,
    expiresAt: null,
  };

  it('a send waiting to leave the machine offers Deny before Allow once on macOS, none elsewhere', () => {
    expect(confirmationNotification(confirmation, 'darwin')).toEqual({
      kind: 'confirmation',
      itemId: 'c1',
      title: 'Leave this machine? alice → bob [abc123] on buildbox',
      body: 'To buildbox: deploy',
      actions: ['Deny', 'Allow once'],
    });
    expect(confirmationNotification(confirmation, 'linux').actions).toEqual([]);
  });

  it('the buttons of a waiting send decide the confirmation', () => {
    const spec = confirmationNotification(confirmation, 'darwin');
    expect(onAction(spec, 0)).toEqual({ kind: 'deny', item: 'confirmation', itemId: 'c1' });
    expect(onAction(spec, 1)).toEqual({ kind: 'approve', item: 'confirmation', itemId: 'c1' });
  });

  it('announces each held item once and forgets decided ones', () => {
    const announced = new Set<string>();
    expect(newHeldItems([item('a'), item('b')], announced).map((i) => i.id)).toEqual(['a', 'b']);
    expect(newHeldItems([item('a'), item('b'), item('c')], announced).map((i) => i.id)).toEqual(['c']);
    expect(newHeldItems([item('c')], announced)).toEqual([]);
    expect([...announced]).toEqual(['c']);
  });
});

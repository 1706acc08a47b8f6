// The tray notification for messages waiting for an idle session that
// cannot be woken: one plain notification per notice, no
// buttons, a click opens the Sessions view (nothing is decided).
import { describe, expect, it } from 'vitest';
import { onAction, onClick, waitingNotification } from '../../electron/notifications/route.js';

describe('waiting-for-an-idle-session notifications', () => {
  const spec = waitingNotification({ sessionId: 's-1', label: 'web [3f]', count: 2 });

  it('names the count and the idle session, without buttons', () => {
    expect(spec).toEqual({
      kind: 'waiting',
      itemId: 's-1',
      title: '2 messages waiting for web [3f], which is idle',
      body: 'Its agent cannot be woken from outside. Switch to it and type anything, or it reads them at its next turn.',
      actions: [],
    });
    expect(waitingNotification({ sessionId: 's-1', label: 'web [3f]', count: 1 }).title).toBe(
      '1 message waiting for web [3f], which is idle',
    );
  });

  it('opens Sessions on a click, deciding nothing', () => {
    expect(onClick(spec)).toEqual({ kind: 'open', itemId: 's-1', view: 'sessions' });
    expect(onAction(spec, 0)).toEqual({ kind: 'open', itemId: 's-1', view: 'sessions' });
  });
});

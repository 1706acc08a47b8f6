// The restore gate (core/host/hub-wiring.ts): a request that reaches the hub
// while its journaled sessions are being restored waits for the restore, so
// it never sees a table without them; once open, requests run at once.
import { describe, expect, it } from 'vitest';
import { RestoreGate } from '../../../core/host/hub-wiring.js';

describe('RestoreGate', () => {
  it('holds calls made before open() until it opens, then runs them in arrival order', async () => {
    const gate = new RestoreGate();
    const ran: string[] = [];
    const first = gate.run(() => ran.push('first'));
    const second = gate.run(() => ran.push('second'));
    await Promise.resolve();
    expect(ran, 'nothing runs before the restore ends').toEqual([]);
    gate.open();
    await Promise.all([first, second]);
    expect(ran).toEqual(['first', 'second']);
  });

  it('runs a call at once, in the same tick, once open', () => {
    const gate = new RestoreGate();
    gate.open();
    expect(gate.isOpen).toBe(true);
    expect(gate.run(() => 'answer')).toBe('answer');
  });
});

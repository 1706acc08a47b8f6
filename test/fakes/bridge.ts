// The one fake of the renderer's Bridge port (renderer/bridge/bridge.ts) that
// every renderer test uses: an answer per operation — a value, a function of
// the input, an Error to throw, or 'pending' for a call that never answers —
// with every call recorded in order; hub events emitted when the test says;
// the connection 'connected' unless the test sets another state. An
// operation without an answer throws, naming it, so a view that calls
// something the test did not expect fails loudly.

import type { BridgeOperation } from '../../core/contract/bridge.js';
import type { Bridge, ConnectionState, HubEvent } from '../../renderer/bridge/bridge.js';

/** A result, a function of the input that returns (or throws) one, an Error to throw, or 'pending'. */
export type FakeAnswer = ((input: Record<string, unknown>) => unknown) | Error | 'pending' | object | null;
export type FakeAnswers = Partial<Record<BridgeOperation, FakeAnswer>>;

export interface FakeBridge {
  bridge: Bridge;
  /** Every call as [operation, input], in order. */
  calls: Array<[string, Record<string, unknown>]>;
  /** Pushes a hub event to the views' listeners. */
  emit(e: HubEvent): void;
  /** Reports a connection state to the listeners (and to later ones). */
  setState(s: ConnectionState): void;
}

export function fakeBridge(answers: FakeAnswers): FakeBridge {
  const calls: Array<[string, Record<string, unknown>]> = [];
  const events = new Set<(e: HubEvent) => void>();
  const states = new Set<(s: ConnectionState) => void>();
  let state: ConnectionState = 'connected';
  const call = async (op: string, input: Record<string, unknown> = {}): Promise<unknown> => {
    calls.push([op, input]);
    if (!Object.prototype.hasOwnProperty.call(answers, op)) throw new Error(`fake bridge: no answer for ${op}`);
    const a = answers[op as BridgeOperation];
    if (a instanceof Error) throw a;
    if (a === 'pending') return new Promise(() => undefined);
    return typeof a === 'function' ? (a as (i: Record<string, unknown>) => unknown)(input) : a;
  };
  const bridge: Bridge = {
    call: call as Bridge['call'],
    onEvent: (l) => {
      events.add(l);
      return () => events.delete(l);
    },
    onState: (l) => {
      states.add(l);
      l(state);
      return () => states.delete(l);
    },
  };
  return {
    bridge,
    calls,
    emit: (e) => events.forEach((l) => l(e)),
    setState: (s) => {
      state = s;
      states.forEach((l) => l(s));
    },
  };
}

// The inbound decision for one message (docs/design.md#7-inbound-policy), pure: an explicit
// crossSessionInbound decides; otherwise mode parity (the receiver's class
// against the class the hub vouches for the sender, none for unverified and
// remote senders), with the session's own child processes let through; then
// project/local values can only tighten. A session whose mode is unknown
// fails closed: it receives as if it bypassed prompts and sends unclassed
// (like an unverified sender). Every decision says why.

import type { ModeClass, SessionClass } from '../registry/session.js';
import type { EffectiveSettings } from '../settings/effective.js';
import { stricter } from '../settings/effective.js';
import type { Inbound } from '../settings/schema.js';

export type Decision = { action: 'deliver' | 'hold' | 'refuse'; reason: string };

const ACTION: Record<Inbound, Decision['action']> = { accept: 'deliver', hold: 'hold', refuse: 'refuse' };

export function decideInbound(
  eff: EffectiveSettings['inbound'],
  receiverClass: SessionClass,
  senderClass: SessionClass | null,
  ownChild: boolean,
): Decision {
  const receiver: ModeClass = receiverClass === 'unknown' ? 'bypass' : receiverClass;
  const sender: ModeClass | null = senderClass === 'unknown' ? null : senderClass;
  const unknown =
    receiverClass === 'unknown'
      ? "this session's permission mode is unknown, so it is treated as bypassing prompts; "
      : '';
  if (eff.value !== null) {
    return { action: ACTION[eff.value], reason: `crossSessionInbound is "${eff.value}" in ${eff.source} settings` };
  }
  let parity: Inbound;
  let reason: string;
  if (ownChild) {
    parity = 'accept';
    reason = "from this session's own child process";
  } else if (receiver === 'prompting') {
    parity = sender === 'bypass' ? 'hold' : 'accept';
    reason =
      sender === 'bypass'
        ? 'the sender bypasses permission prompts and this session does not (mode parity)'
        : 'both sessions prompt for permissions (mode parity)';
  } else {
    parity = sender === 'bypass' ? 'accept' : 'hold';
    reason =
      sender === 'bypass'
        ? 'both sessions bypass permission prompts (mode parity)'
        : sender === null
          ? 'this session bypasses permission prompts and the sender is unverified (mode parity)'
          : 'this session bypasses permission prompts and the sender does not (mode parity)';
  }
  if (eff.floor !== null && stricter(parity, eff.floor.value) !== parity) {
    return {
      action: ACTION[eff.floor.value],
      reason: `crossSessionInbound is "${eff.floor.value}" in ${eff.floor.source} settings`,
    };
  }
  return { action: ACTION[parity], reason: ownChild ? reason : unknown + reason };
}

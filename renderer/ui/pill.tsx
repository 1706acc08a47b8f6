// A receipt or decision status as a pill coloured by what it means for the
// message (through, waiting for you, stopped). The status name is never used
// as a CSS class: "held" once picked up the Approvals card's styles.
import type { ReactNode } from 'react';

export type StatusTone = 'ok' | 'wait' | 'bad' | 'neutral';

const TONES: Record<string, StatusTone> = {
  deliver: 'ok',
  delivered: 'ok',
  queued: 'ok',
  approved: 'ok',
  sent: 'ok',
  accept: 'ok',
  subscribed: 'ok',
  held: 'wait',
  stored: 'wait',
  hold: 'wait',
  refused: 'bad',
  refuse: 'bad',
  denied: 'bad',
  dropped: 'bad',
  drop: 'bad',
  expired: 'bad',
  'confirm-denied': 'bad',
  'confirm-expired': 'bad',
};

export function statusTone(status: string): StatusTone {
  return Object.prototype.hasOwnProperty.call(TONES, status) ? TONES[status]! : 'neutral';
}

export function StatusPill({ status }: { status: string }): ReactNode {
  return (
    <span className={`pill tone-${statusTone(status)}`} data-status={status}>
      {status}
    </span>
  );
}

// A session's recent traffic as a tiny inline SVG line (no chart library):
// messages per time bucket, oldest left. Counts come from the activity ring
// the renderer already holds (traffic()), so drawing it costs no hub call.
import type { ReactNode } from 'react';
import type { ActivityEntry } from '../stores/stores.js';

export const SPARK_BUCKETS = 15; // points per line
export const SPARK_BUCKET_MS = 2 * 60_000; // 15 × 2 min: the last half hour
const W = 64;
const H = 16;

/** Messages per bucket for each session name: each message once (its entries share a msgId), at its first entry. */
export function traffic(
  entries: readonly ActivityEntry[],
  now: number,
  buckets = SPARK_BUCKETS,
  bucketMs = SPARK_BUCKET_MS,
): Map<string, number[]> {
  const start = now - buckets * bucketMs;
  const first = new Map<string, ActivityEntry>();
  for (const e of entries) {
    if (e.at < start || e.at > now) continue;
    const seen = first.get(e.msgId);
    if (seen === undefined || e.at < seen.at) first.set(e.msgId, e);
  }
  const out = new Map<string, number[]>();
  for (const e of first.values()) {
    const i = Math.min(buckets - 1, Math.floor((e.at - start) / bucketMs));
    for (const name of new Set([e.sender, e.receiver])) {
      let row = out.get(name);
      if (row === undefined) out.set(name, (row = new Array<number>(buckets).fill(0)));
      row[i]!++;
    }
  }
  return out;
}

export function Sparkline({ counts, label }: { counts: readonly number[] | undefined; label: string }): ReactNode {
  const values = counts ?? new Array<number>(SPARK_BUCKETS).fill(0);
  const total = values.reduce((a, b) => a + b, 0);
  const max = Math.max(1, ...values);
  const step = W / Math.max(1, values.length - 1);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(H - 1 - (v / max) * (H - 2)).toFixed(1)}`).join(' ');
  const text = `${label}: ${total} message${total === 1 ? '' : 's'} in the last ${Math.round((values.length * SPARK_BUCKET_MS) / 60_000)} minutes`;
  return (
    <svg
      className={`sparkline ${total === 0 ? 'quiet' : ''}`}
      width={W}
      height={H}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={text}
      data-testid="sparkline"
      data-total={total}
    >
      <title>{text}</title>
      <polyline points={points} fill="none" strokeWidth="1.5" />
    </svg>
  );
}

// "Did you mean …": the listed names closest to a `to` that matched nothing,
// for the error a sender gets (never used to pick a target: resolution never
// guesses). Close means a small edit distance (typos: one edit per three
// characters, at least one) or one name containing the other. Pure; costs
// O(rows × name length²) on the error path only, with names ≤ 64 characters.

const SHOWN = 3;

/** Levenshtein distance, giving up (returning `max + 1`) once every path exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? max + 1;
}

/**
 * Up to 3 rows whose normalized name is closest to `want` (already
 * normalized), nearest first, ties in listing order. A name that contains
 * `want` (or is contained in it) counts as close, after the typos.
 */
export function closestRows<R extends { nameNorm: string }>(want: string, rows: readonly R[]): R[] {
  if (want === '') return [];
  const max = Math.max(1, Math.floor(want.length / 3));
  const scored: Array<{ row: R; score: number; order: number }> = [];
  rows.forEach((row, order) => {
    const d = editDistance(want, row.nameNorm, max);
    if (d <= max) scored.push({ row, score: d, order });
    else if (row.nameNorm.includes(want) || (row.nameNorm.length >= 3 && want.includes(row.nameNorm)))
      scored.push({ row, score: max + 1, order });
  });
  scored.sort((x, y) => x.score - y.score || x.order - y.order);
  return scored.slice(0, SHOWN).map((s) => s.row);
}

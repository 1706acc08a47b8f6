// Comparing agents' dotted version numbers ("2.1.332", "v0.171.0"): the
// hook form setup writes and the ways in the hub uses depend on them.

/** a >= b for dotted numeric versions (a leading "v" and any suffix after the numbers ignored). */
export function versionAtLeast(a: string, b: string): boolean {
  const nums = (v: string): number[] | undefined => /^v?(\d+(?:\.\d+)*)/.exec(v.trim())?.[1]?.split('.').map(Number);
  const x = nums(a);
  const y = nums(b) ?? [];
  if (x === undefined) return false;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

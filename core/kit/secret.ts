// The one constant-time comparison of secrets (session tokens, token hashes,
// the UI token): no early exit, so the time never depends on where two values
// first differ. Allocation-free, because it runs on every session request.

/** Whether `given` equals `secret`, in constant time for equal lengths; undefined never matches. */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined || given.length !== secret.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ secret.charCodeAt(i);
  return diff === 0;
}

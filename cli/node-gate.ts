// Which Node versions Switchboard runs on, and the one line that refuses the
// others. Promises: no imports and only syntax and APIs that Node 12 and later
// have (each entry point runs this before it loads anything else, so that an
// old Node reads one sentence instead of failing half-way, or worse, starting
// without `node:sqlite` and keeping no history). Keep it that way.
//
// 22.13 is the first Node 22 with `node:sqlite` unflagged (history); 22.12
// brought require(esm) and the compile cache. package.json `engines` and
// scripts/toolchain.mjs MIN_NODE say the same (test/cli/node-gate.test.ts).

/** The oldest supported Node, [major, minor]. */
export const MIN_NODE: readonly [number, number] = [22, 13];

/** The exit code of a refusal (sysexits EX_CONFIG: the environment is not one this program runs in). */
export const EXIT_UNSUPPORTED_NODE = 78;

/** null when Node `version` (process.versions.node, "22.13.0") is supported, else the one line that says what to do. */
export function unsupportedNode(version: string): string | null {
  const parts = String(version).replace(/^v/, '').split('.');
  const major = Number(parts[0]);
  const minor = Number(parts[1]);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return null;
  return (
    'switchboard needs Node ' +
    MIN_NODE.join('.') +
    ' or newer (this is Node ' +
    version +
    '). Install Node 24 LTS from https://nodejs.org or with your version manager (nvm install 24), then run switchboard with it.'
  );
}

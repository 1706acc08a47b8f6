// Entry point of the bundled CLI (dist/cli/switchboard.mjs). Promises: the
// Node version is checked before anything else loads — this module imports
// only node-gate.ts (no imports of its own), and everything else comes with
// the dynamic import of launch.ts — so an unsupported Node gets one line on
// stderr saying which Node is needed and how to get it, and exit code 78.
// `switchboard hook …` is refused with exit 0 instead: a hook never breaks
// its agent (an agent reads exit 2 as "block", and any other failure as an
// error on every tool call); the line is on stderr either way.
import { EXIT_UNSUPPORTED_NODE, unsupportedNode } from './node-gate.js';

const refusal = unsupportedNode(process.versions.node);
if (refusal !== null) {
  process.stderr.write(refusal + '\n');
  process.exitCode = process.argv[2] === 'hook' ? 0 : EXIT_UNSUPPORTED_NODE;
} else {
  void import('./launch.js');
}

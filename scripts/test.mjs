// `npm test`: every check and suite, in order, stopping at the first that
// fails. First it makes sure the machine has what the suites need (a
// supported Node, Chromium, nats-server, tmux, unshare) — installing them
// where it may, or stopping at once with one message that names exactly what
// to install. The suites then run on the project's pinned Node 24 (npm puts
// node_modules/.bin first on PATH) and the unit suite again on Node 22.
// Last, it fails when the suites left anything named like our temporary
// directories (`sb…`) in the temp directory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTools } from './prereqs.mjs';
import { failureReport, testSteps } from './test-steps.mjs';
import { nodeBinary, supportedNode } from './toolchain.mjs';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env };
const skipInterop = env.SWITCHBOARD_SKIP_INTEROP === '1';
const skipAgents = skipInterop || env.SWITCHBOARD_SKIP_AGENTS === '1';

function fail(message) {
  console.error(`\n${message}`);
  process.exit(1);
}

const nodeProblem = supportedNode(process.version);
if (nodeProblem) fail(`npm test: ${nodeProblem}`);
const toolProblem = ensureTools({ env });
if (toolProblem) fail(toolProblem);
if (process.argv.includes('--prereqs-only')) {
  console.error('npm test: every system program the suites need is here.');
  process.exit(0);
}

const second = env.SWITCHBOARD_SECOND_NODE === '0' ? null : nodeBinary('22');
// npx resolves the project's own binaries.
const steps = testSteps({ skipInterop, skipAgents, second: second && 'path' in second ? second : null });

/** Entries in the temp directory named like our tests' (TEMP_PREFIX in test/helpers/temp.ts). */
const ourTemps = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('sb'));
const tempsBefore = new Set(ourTemps());

const started = Date.now();
for (const [index, step] of steps.entries()) {
  console.error(`\n▶ npm test: ${step.label}`);
  const t0 = Date.now();
  const r = spawnSync(step.argv[0], step.argv.slice(1), { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0)
    fail(failureReport(step, index, steps.length, r.error?.message ?? `exit ${r.status ?? r.signal}`));
  console.error(`npm test: "${step.label}" passed in ${Math.round((Date.now() - t0) / 1000)} s.`);
}
const left = ourTemps().filter((n) => !tempsBefore.has(n));
if (left.length > 0)
  fail(
    `npm test: the suites left ${left.length} temporary entries in ${os.tmpdir()}: ${left.slice(0, 10).join(', ')}. ` +
      'Tests make them with tempDir() (test/helpers/temp.ts) and remove them.',
  );
if (second && !('path' in second)) console.error(`\nnpm test: the second pass on Node 22 did not run: ${second.why}.`);
if (skipInterop)
  console.error('\nnpm test: the interop and real-agent suites were skipped (SWITCHBOARD_SKIP_INTEROP=1).');
else if (skipAgents) console.error('\nnpm test: the real-agent suite was skipped (SWITCHBOARD_SKIP_AGENTS=1).');
console.error(`\nnpm test: all ${steps.length} steps passed in ${Math.round((Date.now() - started) / 1000)} s.`);

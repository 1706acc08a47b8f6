// `npm run pack:check` (a step of `npm test`, after the build): proves the
// installable package works as a user gets it. It packs the package
// (stage-package.mjs) with `npm pack`, installs the tarball with
// `npm install -g` into an empty prefix — offline, with an empty npm cache, so
// a package that needed anything from the registry at run time fails here —
// and runs, with only the prefix's bin, this Node's directory, /usr/bin and
// /bin on PATH and an empty HOME:
//   switchboard --version                  (the package's version)
//   switchboard serve --ui --port 0 --json (the UI's page over HTTP is the built
//       one; its API answers only with the printed token; history is on; SIGTERM
//       stops it with exit 0)
//   switchboard setup claude-code --dry-run --json (hooks name this Node and the
//       installed hook entry; nothing is written)
//   npx --package <tarball> switchboard --version (and setup through npx warns
//       that it would write npx's temporary copy into the agent's settings)
// and, where /usr/bin/node is older than `engines` allows, that the installed
// command refuses it with the one line of cli/node-gate.ts and exit 78.
// Leaves nothing behind: everything happens in one temporary directory that
// is removed at the end, pass or fail.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { missingBuild, npmCommand, packStaged, REQUIRED_FILES, SHIPPED_DIRS, stagePackage } from './stage-package.mjs';

const HANG_MS = 60_000; // a bound only a hang reaches
const EXIT_UNSUPPORTED_NODE = 78; // cli/node-gate.ts
const OLD_NODE = process.env.SWITCHBOARD_OLD_NODE ?? '/usr/bin/node';

function check(ok, what) {
  if (!ok) throw new Error(what);
}

function log(text) {
  console.error(`pack check: ${text}`);
}

/** Runs a command to its end: { code, stdout, stderr, ms }. */
function run(argv, env, cwd) {
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { env, cwd, encoding: 'utf8', timeout: HANG_MS });
  if (r.error) throw new Error(`${argv.join(' ')}: ${r.error.message}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: Math.round(performance.now() - t0) };
}

function succeeded(r, what) {
  check(r.code === 0, `${what} exited ${r.code}:\n${r.stderr}${r.stdout}`);
  return r;
}

/** Everything the package holds is the build's folders, its package.json, README.md and LICENSE. */
function checkContents(files) {
  const stray = files.filter(
    (f) => !['package.json', 'README.md', 'LICENSE'].includes(f) && !SHIPPED_DIRS.some((d) => f.startsWith(`${d}/`)),
  );
  check(stray.length === 0, `the package holds files it should not: ${stray.join(', ')}`);
  const absent = REQUIRED_FILES.filter((f) => !files.includes(f));
  check(absent.length === 0, `the package lacks ${absent.join(', ')}`);
}

/** The first stdout line of `child` that is a ready event, or an error when it exits or writes none in time. */
function readyLine(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve wrote no ready line in ${HANG_MS} ms:\n${err}`)), HANG_MS);
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      for (const line of out.split('\n').slice(0, -1)) {
        let event;
        try {
          event = JSON.parse(line);
        } catch {
          continue;
        }
        if (event.event !== 'ready') continue;
        clearTimeout(timer);
        resolve(event);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code ?? signal}) before it was ready:\n${err}${out}`));
    });
  });
}

/** Sends SIGTERM and waits for the exit: its code, or the signal's name. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => process.kill(child.pid, 'SIGKILL'), HANG_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal);
    });
    process.kill(child.pid, 'SIGTERM');
  });
}

async function checkServe(env, rendererDir) {
  const child = spawn('switchboard', ['serve', '--ui', '--port', '0', '--json'], { env, stdio: 'pipe' });
  let code;
  try {
    const ready = await readyLine(child);
    check(typeof ready.ui === 'string' && typeof ready.uiToken === 'string', `the ready line has no UI: ${ready}`);
    const url = new URL(ready.ui);
    check(url.hash === `#token=${ready.uiToken}`, `the printed UI address does not carry the token: ${ready.ui}`);
    const base = `${url.origin}/`;
    const page = await fetch(base);
    const html = await page.text();
    check(page.status === 200, `GET ${base}: ${page.status}`);
    check(html === fs.readFileSync(path.join(rendererDir, 'index.html'), 'utf8'), 'the UI page is not the built one');
    const script = /<script[^>]* src="\.\/([^"]+)"/.exec(html)?.[1];
    check(script !== undefined, 'the UI page loads no script');
    const asset = await fetch(new URL(script, base));
    check(asset.status === 200, `GET ${script}: ${asset.status}`);
    const call = (token) =>
      fetch(new URL('api/history.status', base), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: '{}',
      });
    const refused = await call(undefined);
    check(refused.status === 401, `the UI's API answered without the token: ${refused.status}`);
    const status = await call(ready.uiToken);
    check(status.status === 200, `the UI's API with the printed token: ${status.status}`);
    const history = (await status.json()).result;
    check(history.enabled === true, `history is off in the installed hub: ${history.reason}`);
  } finally {
    code = await stop(child);
  }
  check(code === 0, `serve stopped with ${code} on SIGTERM`);
}

function checkSetup(env, installed) {
  const r = succeeded(run(['switchboard', 'setup', 'claude-code', '--dry-run', '--json'], env), 'setup --dry-run');
  const diff = JSON.parse(r.stdout).diff.join('\n');
  const hookEntry = path.join(installed, 'dist', 'cli', 'switchboard-hook.cjs');
  check(diff.includes(JSON.stringify(`"${process.execPath}" "${hookEntry}" session-start --agent claude`)), diff);
  check(!fs.existsSync(path.join(env.HOME, '.claude')), 'setup --dry-run wrote into HOME');
  check(r.stderr === '', `setup from the installed package warned:\n${r.stderr}`);
}

/** The Node at OLD_NODE when it is older than `engines` allows, else why there is none. */
function oldNode(engines) {
  const min = /^>=(\d+)\.(\d+)$/.exec(engines);
  check(min !== null, `engines.node is ${engines}, expected >=X.Y`);
  if (!fs.existsSync(OLD_NODE)) return { why: `no ${OLD_NODE}` };
  const version = run([OLD_NODE, '-p', 'process.versions.node'], process.env).stdout.trim();
  const [major, minor] = version.split('.').map(Number);
  const older = major < Number(min[1]) || (major === Number(min[1]) && minor < Number(min[2]));
  return older ? { version, dir: path.dirname(OLD_NODE) } : { why: `${OLD_NODE} is Node ${version}, supported` };
}

async function main() {
  const missing = missingBuild();
  if (missing !== null) throw new Error(missing);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pack-'));
  try {
    const npm = npmCommand();
    const manifest = stagePackage(path.join(tmp, 'package'));
    const packed = packStaged(path.join(tmp, 'package'), tmp);
    checkContents(packed.files);
    log(
      `${path.basename(packed.file)}: ${packed.files.length} files, ${packed.size} bytes, ${packed.unpackedSize} unpacked`,
    );

    const prefix = path.join(tmp, 'prefix');
    const home = path.join(tmp, 'home');
    const runtime = path.join(tmp, 'run');
    for (const d of [prefix, home, runtime]) fs.mkdirSync(d, { mode: 0o700 });
    const nodeDir = path.dirname(process.execPath);
    const clean = (dirs, extra = {}) => ({ PATH: [...dirs, '/usr/bin', '/bin'].join(':'), HOME: home, ...extra });
    const npmEnv = clean([nodeDir]);
    const cache = ['--offline', '--cache', path.join(tmp, 'npm-cache'), '--no-audit', '--no-fund'];
    const install = run([...npm, 'install', '-g', '--prefix', prefix, ...cache, packed.file], npmEnv, tmp);
    succeeded(install, 'npm install -g of the tarball (offline)');
    log(`installed into an empty prefix in ${install.ms} ms`);
    const installed = path.join(prefix, 'lib', 'node_modules', manifest.name);
    check(!fs.existsSync(path.join(installed, 'node_modules')), 'the installed package brought dependencies');

    const env = clean([path.join(prefix, 'bin'), nodeDir], { SWITCHBOARD_RUNTIME_DIR: runtime });
    const version = succeeded(run(['switchboard', '--version'], env), 'switchboard --version');
    check(version.stdout.trim() === manifest.version, `--version said ${version.stdout.trim()}`);
    log(`switchboard --version: ${manifest.version}`);
    await checkServe(env, path.join(installed, 'dist', 'renderer'));
    log('serve --ui: the built page over HTTP, its API with the printed token only, history on, stopped with 0');
    checkSetup(env, installed);
    log('setup claude-code --dry-run: hooks name this Node and the installed hook entry; nothing written');

    const npx = run(
      [...npm, 'exec', '--yes', ...cache, '--package', packed.file, '--', 'switchboard', '--version'],
      npmEnv,
      home,
    );
    check(succeeded(npx, 'npx switchboard --version').stdout.trim() === manifest.version, `npx said ${npx.stdout}`);
    const npxSetup = [...npm, 'exec', '--yes', ...cache, '--package', packed.file, '--', 'switchboard', 'setup'];
    const warned = succeeded(run([...npxSetup, 'claude-code', '--dry-run'], npmEnv, home), 'npx switchboard setup');
    check(warned.stderr.includes("runs from npx's cache"), `setup through npx did not warn:\n${warned.stderr}`);
    log("npx --package <tarball> switchboard --version; setup through npx warns that npx's cache is temporary");

    const old = oldNode(manifest.engines.node);
    if ('why' in old) log(`the refusal of an old Node not tried: ${old.why}`);
    else {
      const r = run(['switchboard', '--version'], clean([path.join(prefix, 'bin'), old.dir]));
      check(r.code === EXIT_UNSUPPORTED_NODE, `on Node ${old.version}: exit ${r.code}\n${r.stderr}`);
      check(r.stdout === '' && /^switchboard needs Node [\d.]+ or newer \(this is Node /.test(r.stderr), r.stderr);
      check(r.stderr.split('\n').length === 2, `the refusal is not one line: ${r.stderr}`);
      log(`Node ${old.version} refused with one line and exit ${EXIT_UNSUPPORTED_NODE}`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => log('the packed tarball installs and runs.'),
  (err) => {
    console.error(`pack check failed: ${err.message}`);
    process.exitCode = 1;
  },
);

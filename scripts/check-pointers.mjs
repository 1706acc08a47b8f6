// The pointer check (run by `npm run lint`; proved by test/docs-pointers.test.ts):
// every pointer a reader would follow from a comment or a doc — `docs/<file>.md`,
// `docs/<file>.md#<anchor>`, a markdown link, a repository path such as
// `core/host/hub.ts` — names a file, folder or heading that exists in this
// repository. Refused outright: pointers that leave the repository
// (`../shared/…`), a bare `<Name>.md` that is not here, and `§N` section numbers
// (cite a heading anchor instead). Reads files only; exits 1 naming each pointer.
import fs from 'node:fs';
import path from 'node:path';

/** Folders whose sources are scanned (comments only), and the roots a repository path may start with. */
export const SOURCE_DIRS = ['core', 'cli', 'electron', 'renderer', 'preload', 'scripts', 'test', 'bench', 'build'];
const ROOTS = [...SOURCE_DIRS, 'docs'];
const SOURCE_EXT = /\.(ts|tsx|mts|mjs|cjs|js|css)$/;
/** Never scanned: generated output, dependencies, and fixtures (data in another program's format). */
const SKIP = new Set(['node_modules', 'dist', '.tsbuild', 'test-results', 'playwright-report', 'fixtures']);

/** GitHub's heading anchor: lowercase, punctuation dropped except '-' and '_', each space a '-'. */
export function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown text's headings (fenced code skipped; repeats get -1, -2 as on GitHub). */
export function anchorsOf(markdown) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/**
 * The comment text of a source file, as [line number, text] pairs: `//` and
 * `/* … *\/` comments outside string literals. Quotes end at the line's end
 * (a stray one in JSX text hides at most the rest of its line).
 */
export function commentsOf(source) {
  const out = [];
  let state = 'code'; // code | block | tpl
  source.split('\n').forEach((line, i) => {
    let quote = null;
    let start = 0;
    for (let j = 0; j < line.length; j++) {
      const c = line[j];
      if (state === 'block') {
        if (c === '*' && line[j + 1] === '/') {
          out.push([i + 1, line.slice(start, j)]);
          state = 'code';
          j++;
        }
      } else if (state === 'tpl' || quote) {
        if (c === '\\') j++;
        else if (state === 'tpl' && c === '`') state = 'code';
        else if (quote === c) quote = null;
      } else if (c === '/' && line[j + 1] === '/') {
        out.push([i + 1, line.slice(j + 2)]);
        return;
      } else if (c === '/' && line[j + 1] === '*') {
        state = 'block';
        start = j + 2;
        j++;
      } else if (c === '`') state = 'tpl';
      else if (c === "'" || c === '"') quote = c;
    }
    if (state === 'block') out.push([i + 1, line.slice(start)]);
  });
  return out;
}

const SECTION = /\b(?:[\w./-]+\.md|DESIGN)\s*§\s*\d[\d.]*/g;
const BARE_MD = /(?<![\w./-])([A-Za-z][\w-]*\.md)\b(?![\w/-])/g;
const REPO_PATH = new RegExp(`(?<![\\w./@-])((?:${ROOTS.join('|')})/[\\w./-]*)(#[\\w-]+)?`, 'g');
const MD_LINK = /\]\(([^)\s]+)\)/g;
const UPWARD = /(?<![\w.])(?:\.\.\/)+[\w.-]+[\w./-]*/g;
/** The folder of notes beside the repository, which a clone does not have. */
const SHARED = /(?<![\w.-])(?:\.\.\/)*shared\/[\w./-]+/g;
/** A doc's path, a comma and a quoted heading: a section cited by (the start of) its heading. */
const QUOTED = /(docs\/[\w-]+\.md)`?\)?,?\s+["“]([^"”]{3,80})["”]/g;
/** A comment that names a round of work instead of a reason. */
export const ROUND = /\b(?:issues?|pass(?:es)?)\s+#?\d+/gi;

/**
 * The broken pointers in one piece of text (a comment or a markdown line) of
 * `file` (repository-relative), as reasons. `exists(rel)` answers 'file',
 * 'dir' or null; `anchors(rel)` gives a markdown file's heading anchors;
 * `ignored(rel)` is true for build output a clone does not have yet.
 */
export function brokenIn(text, file, { exists, anchors, ignored = () => false }) {
  const out = [];
  const dir = path.posix.dirname(file);
  const target = (rel, anchor, shown) => {
    const kind = exists(rel);
    if (!kind) return out.push(`${shown}: no such file or folder in the repository`);
    if (anchor && kind === 'file' && rel.endsWith('.md') && !anchors(rel).has(anchor))
      out.push(`${shown}: no heading with the anchor #${anchor} in ${rel}`);
  };
  const sections = [...text.matchAll(SECTION)];
  for (const m of sections) out.push(`${m[0]}: a section number does not resolve; cite a heading anchor`);
  for (const m of text.matchAll(SHARED)) out.push(`${m[0]}: points outside the repository`);
  for (const m of text.matchAll(QUOTED)) {
    if (exists(m[1]) !== 'file') continue; // reported below as a missing file
    const wanted = slug(m[2]);
    if (![...anchors(m[1])].some((a) => a.startsWith(wanted)))
      out.push(`${m[1]}, "${m[2]}": no heading of ${m[1]} starts so`);
  }
  for (const m of text.matchAll(UPWARD)) {
    const rel = path.posix.normalize(path.posix.join(dir, m[0]));
    if (rel.startsWith('..')) out.push(`${m[0]}: points outside the repository`);
  }
  for (const m of text.matchAll(REPO_PATH)) {
    const next = text[m.index + m[0].length] ?? '';
    if (/[*{<$[]/.test(next)) continue; // a glob or a template, not a pointer
    let rel = m[1].replace(/[.]+$/, '');
    const isDir = rel.endsWith('/');
    rel = rel.replace(/\/+$/, '');
    if (ignored(rel)) continue; // build output (.gitignore): made by a build, never cited for its content
    if (!isDir && !/\.\w+$/.test(rel) && !exists(rel)) continue; // prose such as "cli/commands" or "test/x" is checked only when it names something
    target(rel, m[2]?.slice(1), m[0]);
  }
  for (const m of text.matchAll(BARE_MD)) {
    if (text[m.index - 1] === '/' || sections.some((s) => s.index === m.index)) continue;
    if (['', dir, 'docs'].some((d) => exists(path.posix.join(d, m[1])))) continue;
    out.push(`${m[1]}: no such file in the repository`);
  }
  if (file.endsWith('.md'))
    for (const m of text.matchAll(MD_LINK)) {
      const link = m[1];
      if (/^[a-z]+:/i.test(link)) continue;
      const [p, anchor] = link.split('#');
      const rel = p ? path.posix.normalize(path.posix.join(dir, p)) : file;
      if (rel.startsWith('..')) out.push(`${link}: points outside the repository`);
      else if (!p || !REPO_PATH.test(`(${p}`)) target(rel, anchor, link);
      REPO_PATH.lastIndex = 0;
    }
  return out;
}

/** The files scanned under `root`: sources in SOURCE_DIRS and the root, docs/*.md and README.md. */
export function filesOf(root) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) walk(r);
      else if (e.isFile() && SOURCE_EXT.test(e.name)) out.push(r);
    }
  };
  for (const d of SOURCE_DIRS) if (fs.existsSync(path.join(root, d))) walk(d);
  for (const e of fs.readdirSync(root)) if (SOURCE_EXT.test(e)) out.push(e);
  for (const e of fs.readdirSync(path.join(root, 'docs'))) if (e.endsWith('.md')) out.push(`docs/${e}`);
  out.push('README.md');
  return out;
}

/** Folders whose comments must give reasons, not the issue or pass that wrote them. */
export const REASON_DIRS = ['core', 'cli', 'electron', 'renderer', 'preload', 'scripts', 'build', 'test', 'bench'];

/** Every broken pointer under `root` (and every comment naming a round of work), as `file:line: reason`. */
export function checkPointers(root, files = filesOf(root)) {
  const cache = new Map();
  const exists = (rel) => {
    const s = fs.statSync(path.join(root, rel), { throwIfNoEntry: false });
    return s?.isFile() ? 'file' : s?.isDirectory() ? 'dir' : null;
  };
  const anchors = (rel) => {
    if (!cache.has(rel)) cache.set(rel, anchorsOf(fs.readFileSync(path.join(root, rel), 'utf8')));
    return cache.get(rel);
  };
  const outputs = fs
    .readFileSync(path.join(root, '.gitignore'), 'utf8')
    .split('\n')
    .filter((l) => /^[\w.-]+(\/[\w.-]+)*\/$/.test(l.trim()));
  const ignored = (rel) => outputs.some((o) => `${rel}/`.startsWith(o.trim()));
  const problems = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const pieces = file.endsWith('.md') ? text.split('\n').map((t, i) => [i + 1, t]) : commentsOf(text);
    const rounds = !file.endsWith('.md') && REASON_DIRS.some((d) => file.startsWith(`${d}/`));
    for (const [line, piece] of pieces) {
      for (const why of brokenIn(piece, file, { exists, anchors, ignored })) problems.push(`${file}:${line}: ${why}`);
      for (const m of rounds ? piece.matchAll(ROUND) : [])
        problems.push(`${file}:${line}: "${m[0]}": say the reason, not the round of work`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkPointers(path.resolve(path.dirname(new URL(import.meta.url).pathname), '..'));
  for (const p of problems) console.error(p);
  process.exit(problems.length ? 1 : 0);
}

// The cycle check over core/ (run by `npm run lint`): every relative import,
// type-only imports and re-exports included, forms a graph that must have no
// circle. Exits 1 naming each circle. `findCycles` is exported for the test.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Relative imports of one TypeScript source, resolved to .ts paths (type imports included). */
export function importsOf(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, false);
  const out = [];
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '.ts');
    out.push(target);
  }
  return out;
}

/** Strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const idx = new Map();
  const low = new Map();
  const cycles = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

/** The import graph of every .ts file under root. */
export function graphOf(root) {
  const graph = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.ts')) graph.set(p, importsOf(p, fs.readFileSync(p, 'utf8')));
    }
  };
  walk(root);
  return graph;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(process.argv[2] ?? 'core');
  const cycles = findCycles(graphOf(root));
  for (const c of cycles)
    console.error(`import circle (${c.length} files): ${c.map((f) => path.relative(process.cwd(), f)).join(' → ')}`);
  if (cycles.length > 0) process.exit(1);
  console.log(`no import circle in ${path.relative(process.cwd(), root) || '.'}/`);
}

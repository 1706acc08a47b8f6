// Summarizes a heap snapshot by constructor (self size and count): node bench/heap-summary.mjs FILE [TOP]
import fs from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
const f = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const [T, N, S] = ['type', 'name', 'self_size'].map((k) => f.indexOf(k));
const by = new Map();
let total = 0;
for (let i = 0; i < snap.nodes.length; i += f.length) {
  const type = types[snap.nodes[i + T]];
  const name =
    type === 'object' || type === 'closure' || type === 'native' ? snap.strings[snap.nodes[i + N]] : `(${type})`;
  const size = snap.nodes[i + S];
  total += size;
  const e = by.get(name) ?? { n: 0, bytes: 0 };
  e.n++;
  e.bytes += size;
  by.set(name, e);
}
console.log(`total ${(total / 1048576).toFixed(1)} MB`);
for (const [name, e] of [...by].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(top)))
  console.log(`${(e.bytes / 1048576).toFixed(2).padStart(8)} MB ${String(e.n).padStart(8)}  ${name.slice(0, 60)}`);

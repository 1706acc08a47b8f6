// Where a process's memory goes, for the memory benchmark (BENCH_BREAKDOWN=1):
// V8's heap and its spaces, external and array buffers, the RSS by mapping
// kind from /proc/self/smaps (the node binary's pages, other files, the
// malloc heap, other anonymous memory), and the libuv handles by type.
// BENCH_SNAPSHOT=<dir> also writes a heap snapshot there (heap-summary.mjs reads it).

import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

const MB = 1024 * 1024;
const mb = (n: number): number => Math.round((n / MB) * 10) / 10;

/** RSS per mapping kind, from /proc/self/smaps. */
function smaps(): Record<string, number> {
  const out: Record<string, number> = {};
  let kind = '';
  const exe = fs.readlinkSync('/proc/self/exe');
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1] ?? '';
      kind =
        name === exe
          ? 'node binary'
          : name === '[heap]'
            ? 'malloc heap'
            : name.startsWith('/')
              ? 'other files'
              : name === ''
                ? 'anonymous'
                : name;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] = (out[kind] ?? 0) + Number(rss[1]) * 1024;
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, mb(v)]));
}

function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  const p = process as unknown as { _getActiveHandles(): object[] };
  for (const h of p._getActiveHandles()) {
    const name = h.constructor.name;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/** The built-in modules loaded so far (internal ones left out). */
function builtins(): string[] {
  const list = (process as unknown as { moduleLoadList: string[] }).moduleLoadList;
  return list
    .filter((m) => m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/'))
    .map((m) => m.slice('NativeModule '.length));
}

export function breakdown(label: string): Record<string, unknown> {
  const mu = process.memoryUsage();
  const hs = v8.getHeapStatistics();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, [mb(s.space_used_size), mb(s.physical_space_size)]]),
  );
  const report: Record<string, unknown> = {
    label,
    rss: mb(mu.rss),
    heapUsed: mb(mu.heapUsed),
    heapTotal: mb(mu.heapTotal),
    heapPhysical: mb(hs.total_physical_size),
    external: mb(mu.external),
    arrayBuffers: mb(mu.arrayBuffers),
    mallocedMemory: mb(hs.malloced_memory),
    spacesUsedPhysical: spaces,
    smaps: smaps(),
    handles: handles(),
    builtins: builtins(),
  };
  const dir = process.env.BENCH_SNAPSHOT;
  if (dir) report.snapshot = v8.writeHeapSnapshot(path.join(dir, `${label}-${process.pid}.heapsnapshot`));
  return report;
}

// Discovers Qwen Code's interactive sessions (docs/integrations.md#qwen-code):
// the registry scanner (scanner.ts: watch `$QWEN_HOME/sessions`, bounded
// directory scan, socket checks, probes, publish on change) with Qwen Code's
// parse function. It lists records of kind `tui` only (its `--acp` sessions
// refuse inbound messages; `external` ones are other programs'), from our
// pid namespace, whose process lives and is the writer (qwen-record.ts). A
// bad, oversized or foreign file is skipped and logged once per version. Of
// two records naming one socket the later started is listed. Each session
// is listed like a stock Claude Code one (a StockSession whose `qwen` part
// carries its token), so resolution and refs treat both alike.

import path from 'node:path';
import { udsAddress } from '../protocol/cc-wire.js';
import { qwenRecordPid, splitProcStart, type QwenRecord } from '../protocol/qwen-wire.js';
import { refHash } from '../registry/names.js';
import type { StockSession } from '../registry/table.js';
import { hostIdentity, qwenProcessMatches, QwenRecordReader, type HostIdentity } from './qwen-record.js';
import { RegistryScanner, type RegistrySource, type ScanParse, type ScannerOptions } from './scanner.js';

export interface QwenDiscoveryOptions extends ScannerOptions {
  startTimeOf?: (pid: number) => string | undefined;
  host?: HostIdentity;
}

export class QwenDiscovery extends RegistryScanner {
  constructor(opts: QwenDiscoveryOptions) {
    super(opts, qwenRegistry(opts.host ?? hostIdentity(), opts.startTimeOf));
  }
}

function qwenRegistry(host: HostIdentity, startTimeOf: QwenDiscoveryOptions['startTimeOf']): RegistrySource {
  const records = new QwenRecordReader();
  return {
    label: 'Qwen Code',
    isFileName: (name) => qwenRecordPid(name) !== undefined,
    keepOnly: (files) => records.keepOnly(files),
    parse(file) {
      const { result: r, changed } = records.read(file);
      return { parsed: r.ok ? candidate(r.record, host, startTimeOf) : r, changed };
    },
  };
}

function candidate(rec: QwenRecord, host: HostIdentity, startTimeOf: QwenDiscoveryOptions['startTimeOf']): ScanParse {
  if (rec.kind !== 'tui') return { ok: false }; // headless/serve refuse inbound; external is another program (or ours)
  if (rec.ipcPath === undefined) return { ok: false }; // written before its socket is bound: a later write adds it
  if (!qwenProcessMatches(rec, host, startTimeOf)) return { ok: false };
  return {
    ok: true,
    candidate: {
      socket: rec.ipcPath,
      probeKey: `${rec.ipcPath}:${rec.procStart ?? ''}:${rec.sessionId}:${rec.ipcToken ?? ''}`,
      rank: [rec.startedAt ?? 0],
      session: toSession({ ...rec, ipcPath: rec.ipcPath }),
    },
  };
}

/** A record as a listed row: its start ticks as our process start (so our own session's row folds it in). */
function toSession(rec: QwenRecord & { ipcPath: string }): StockSession {
  const socketPath = path.resolve(rec.ipcPath);
  const ticks = splitProcStart(rec.procStart)?.ticks;
  return {
    entry: {
      pid: rec.pid,
      sessionId: rec.sessionId,
      cwd: rec.cwd,
      messagingSocketPath: socketPath,
      kind: rec.kind,
      ...(rec.name !== undefined ? { name: rec.name } : {}),
      ...(rec.startedAt !== undefined ? { startedAt: rec.startedAt } : {}),
      ...(ticks !== undefined ? { procStart: ticks } : {}),
      ...(rec.qwenVersion !== undefined ? { version: rec.qwenVersion } : {}),
    },
    socketPath,
    address: udsAddress(socketPath),
    refHash: refHash(socketPath),
    status: undefined,
    qwen: { token: rec.ipcToken },
  };
}

// Discovers stock Claude Code sessions: the registry scanner (scanner.ts:
// watch, bounded directory scan, socket checks, probes, publish on change)
// with Claude Code's parse function. A file is parsed only when it changed
// (EntryReader); it is a candidate when it is not one of our own published
// entries (SWITCHBOARD_ENTRYPOINT) and its process lives and wrote it. Of
// two entries naming one socket the newest file is listed (equal times: the
// lower pid). The probe is redone when the file, its socket or its start time
// changes.

import path from 'node:path';
import { udsAddress } from '../protocol/cc-wire.js';
import { refHash } from '../registry/names.js';
import type { StockSession } from '../registry/table.js';
import { EntryReader, isRegistryFileName, processMatches, SWITCHBOARD_ENTRYPOINT } from './entry.js';
import { RegistryScanner, type RegistrySource, type ScanParse, type ScannerOptions } from './scanner.js';

export { REPROBE_MS } from './scanner.js';

/** One live stock session as the hub lists it. */
export type { StockSession };

export interface DiscoveryOptions extends ScannerOptions {
  startTimeOf?: (pid: number) => string | undefined;
}

export class StockDiscovery extends RegistryScanner {
  constructor(opts: DiscoveryOptions) {
    super(opts, claudeRegistry(opts.startTimeOf));
  }
}

function claudeRegistry(startTimeOf: DiscoveryOptions['startTimeOf']): RegistrySource {
  const entries = new EntryReader();
  return {
    label: 'Claude Code',
    isFileName: isRegistryFileName,
    keepOnly: (files) => entries.keepOnly(files),
    parse(file) {
      const { result: r, changed } = entries.read(file);
      return { parsed: r.ok ? candidate(r.entry, r.mtimeMs, startTimeOf) : r, changed };
    },
  };
}

function candidate(e: StockSession['entry'], mtimeMs: number, startTimeOf: DiscoveryOptions['startTimeOf']): ScanParse {
  if (e.entrypoint === SWITCHBOARD_ENTRYPOINT) return { ok: false };
  if (!processMatches(e, startTimeOf)) return { ok: false };
  const socketPath = path.resolve(e.messagingSocketPath);
  return {
    ok: true,
    candidate: {
      socket: e.messagingSocketPath,
      probeKey: `${mtimeMs}:${e.messagingSocketPath}:${e.procStart ?? ''}`,
      rank: [mtimeMs, -e.pid],
      session: {
        entry: e,
        socketPath,
        address: udsAddress(socketPath),
        refHash: refHash(socketPath),
        status: e.status,
      },
    },
  };
}

// Qwen Code's registry files (docs/integrations.md#qwen-code), owned by Qwen
// Code: read as unknown and bounded (64 KiB like Qwen Code itself, never
// following a link, never blocking on a FIFO), parsed only when the file
// changed (by device, inode, size, mtime, ctime). Liveness of a record: its
// pid namespace is ours, its pid is alive, and the boot id and start ticks
// of its `procStart` are this boot's and that process's. Never throws.

import fs from 'node:fs';
import path from 'node:path';
import {
  parseQwenRecord,
  QWEN_RECORD_MAX_BYTES,
  splitProcStart,
  type QwenRecordResult,
} from '../protocol/qwen-wire.js';
import type { QwenRecord } from '../protocol/qwen-wire.js';
import { pidAlive, processStartTime } from '../registry/proc.js';
import { FileVersions, type Reading as FileVersionsReading } from './file-versions.js';

type Reading = FileVersionsReading<QwenRecordResult>;

const failed = (why: string): Reading => ({ version: why, result: { ok: false, why } });

function readVersion(file: string, known: Reading | undefined): Reading {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return failed(`unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const st = fs.fstatSync(fd);
    const version = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    if (known?.version === version) return known;
    if (!st.isFile()) return { version, result: { ok: false, why: 'not a regular file' } };
    if (st.size > QWEN_RECORD_MAX_BYTES)
      return { version, result: { ok: false, why: `over ${QWEN_RECORD_MAX_BYTES} bytes` } };
    const buf = Buffer.alloc(QWEN_RECORD_MAX_BYTES + 1);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    if (n > QWEN_RECORD_MAX_BYTES)
      return { version, result: { ok: false, why: `over ${QWEN_RECORD_MAX_BYTES} bytes` } };
    return { version, result: parseQwenRecord(path.basename(file), buf.toString('utf8', 0, n)) };
  } catch {
    return failed('unreadable');
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads record files, parsing each only when it changed since its last reading. */
export class QwenRecordReader extends FileVersions<QwenRecordResult> {
  constructor() {
    super(readVersion);
  }
}

/** What this process knows of its own machine, to compare records with (undefined where it cannot tell). */
export interface HostIdentity {
  pidNs: number | undefined;
  bootId: string | undefined;
}

export function hostIdentity(): HostIdentity {
  let pidNs: number | undefined;
  let bootId: string | undefined;
  try {
    pidNs = fs.statSync('/proc/self/ns/pid').ino;
  } catch {
    // not Linux
  }
  try {
    bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    // not Linux
  }
  return { pidNs, bootId };
}

/** Whether the record's process is alive in our pid namespace and is the process that wrote it (pid reuse). */
export function qwenProcessMatches(
  r: QwenRecord,
  host: HostIdentity,
  startTimeOf: (pid: number) => string | undefined = processStartTime,
): boolean {
  if (r.pidNs !== undefined && host.pidNs !== undefined && r.pidNs !== host.pidNs) return false;
  if (!pidAlive(r.pid)) return false;
  const start = splitProcStart(r.procStart);
  if (start === undefined) return r.procStart === undefined;
  if (host.bootId !== undefined && start.bootId !== host.bootId) return false;
  const now = startTimeOf(r.pid);
  return now === undefined || now === start.ticks;
}

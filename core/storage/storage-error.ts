// A write the disk refused, as the hub answers it: a full disk (or quota)
// is `storage_full`, a read-only one `storage_readonly`, each naming the
// directory; any other error passes through unchanged.

import { HubError } from '../protocol/errors.js';

export function storageError(err: unknown, directory: string): Error {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new HubError('storage_full', { directory }, { cause: err });
  if (code === 'EROFS') return new HubError('storage_readonly', { directory }, { cause: err });
  return err instanceof Error ? err : new Error(String(err));
}

/** The error is a full or read-only disk (what storageError makes of it). */
export function isStorageError(err: unknown): err is HubError {
  return err instanceof HubError && (err.reason === 'storage_full' || err.reason === 'storage_readonly');
}

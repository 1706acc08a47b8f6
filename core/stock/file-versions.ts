// The last reading of each registry file (Claude Code's and Qwen Code's), so
// that a scan re-parses only files that changed: the agent's readVersion
// opens and fstats the file and returns the known reading when its version
// (device, inode, size, mtime, ctime; or why it cannot be read) is unchanged.

/** A file's result and the version it was read at. */
export interface Reading<R> {
  version: string;
  result: R;
}

export class FileVersions<R> {
  readonly #known = new Map<string, Reading<R>>();
  readonly #readVersion: (file: string, known: Reading<R> | undefined) => Reading<R>;

  constructor(readVersion: (file: string, known: Reading<R> | undefined) => Reading<R>) {
    this.#readVersion = readVersion;
  }

  /** The file's result; `changed` is false when it is the same version as last time. */
  read(file: string): { result: R; changed: boolean } {
    const known = this.#known.get(file);
    const now = this.#readVersion(file, known);
    this.#known.set(file, now);
    return { result: now.result, changed: now.version !== known?.version };
  }

  /** Forgets files no longer in the directory. */
  keepOnly(files: ReadonlySet<string>): void {
    for (const file of this.#known.keys()) if (!files.has(file)) this.#known.delete(file);
  }
}

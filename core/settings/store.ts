// Reads the settings files of every scope, notices changes without a
// restart, and resolves effective settings per session. Changes are noticed
// by watching the files' folders (settings/dir-watch.ts: files that appear,
// vanish, or are replaced by editors that rename), never by a timer; a
// change re-stats the files in use (`poll`). A file is in use while a
// session's settings (or the admin scopes) depend on it: when the last
// session using it ends, it is forgotten and its folder no longer watched. Problems are logged once per change, naming the file and key.
// Never throws on bad files: they fail closed through the resolver. Never
// blocks either: only regular files are read (a FIFO, a device or a link to
// one is refused without waiting), at most MAX_SETTINGS_BYTES + 1 bytes.

import fs from 'node:fs';
import path from 'node:path';
import { readBoundedSync } from '../storage/bounded-read.js';
import { DirWatch } from './dir-watch.js';
import type { Logger } from '../kit/logger.js';
import {
  emptyParsed,
  parseSettingsText,
  parseSettingsValue,
  CLAUDE_KEYS,
  type ParsedSettings,
  type SettingsProblem,
} from './schema.js';
import { resolveSettings, type EffectiveSettings, type Layers } from './effective.js';

export const MAX_SETTINGS_BYTES = 1024 * 1024; // a settings file is small; larger is not one

export function defaultManagedPath(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'darwin') return '/Library/Application Support/Switchboard/managed-settings.json';
  if (platform === 'win32')
    return path.join(env.ProgramData ?? 'C:\\ProgramData', 'Switchboard', 'managed-settings.json');
  return '/etc/switchboard/managed-settings.json';
}

/** What every missing file (and absent flag settings) parses to: one shared object, never mutated. */
const NOTHING: ParsedSettings = emptyParsed();
Object.freeze(NOTHING.problems);
Object.freeze(NOTHING);

interface CachedFile {
  sig: string;
  parsed: ParsedSettings;
  claude: boolean;
}

export interface SettingsStoreOptions {
  managedPath: string;
  userPath: string;
  logger: Logger;
  /** A watched folder changed: call `poll` (the hub does, then applies what changed). Without it nothing is watched. */
  changed?: () => void;
}

export class SettingsStore {
  readonly managedPath: string;
  readonly userPath: string;
  readonly #log: Logger;
  readonly #files = new Map<string, CachedFile>();
  readonly #effective = new Map<string, EffectiveSettings>();
  /** Effective settings by the identity of their layers: sessions whose files are the same (often all missing) share one. */
  readonly #byLayers = new Map<string, EffectiveSettings>();
  readonly #layerIds = new WeakMap<ParsedSettings, number>();
  #nextLayerId = 1;
  #generation = 0;
  /** Per cache key (a session, the admin scopes), the files its settings were resolved from. */
  readonly #filesOf = new Map<string, readonly string[]>();
  /** Per file in use, how many cache keys use it. */
  readonly #users = new Map<string, number>();
  readonly #watch: DirWatch | undefined;

  constructor(opts: SettingsStoreOptions) {
    this.managedPath = opts.managedPath;
    this.userPath = opts.userPath;
    this.#log = opts.logger;
    const changed = opts.changed;
    if (changed !== undefined) this.#watch = new DirWatch(changed);
  }

  /** Whether some settings folder cannot be watched: then the hub polls at its long interval. */
  get needsPolling(): boolean {
    return this.#watch?.unwatched ?? false;
  }

  /** Files in use (tests, benchmarks). */
  get filesInUse(): number {
    return this.#users.size;
  }

  /** Stops watching. */
  close(): void {
    this.#watch?.close();
  }

  /** Bumps on every change; callers compare to know when to re-evaluate. */
  get generation(): number {
    return this.#generation;
  }

  /** Parses per-session ("flag") settings given at registration. */
  parseFlag(value: Record<string, unknown> | null, sessionName: string): ParsedSettings {
    if (value === null) return NOTHING;
    const parsed = parseSettingsValue(value, `flag settings of ${sessionName}`, { strict: true });
    this.#report(parsed.problems);
    return parsed;
  }

  /** The files `layers(cwd, …)` reads, in its order. */
  filesFor(cwd: string): string[] {
    if (cwd === '') return [this.managedPath, this.userPath];
    return [
      this.managedPath,
      this.userPath,
      path.join(cwd, '.switchboard', 'settings.json'),
      path.join(cwd, '.claude', 'settings.json'),
      path.join(cwd, '.switchboard', 'settings.local.json'),
      path.join(cwd, '.claude', 'settings.local.json'),
    ];
  }

  layers(cwd: string, flag: ParsedSettings): Layers {
    const own = (p: string): ParsedSettings => this.#file(p, false);
    const claude = (p: string): ParsedSettings => this.#file(p, true);
    if (cwd === '')
      return { managed: [own(this.managedPath)], flag: [flag], user: [own(this.userPath)], project: [], local: [] };
    return {
      managed: [own(this.managedPath)],
      flag: [flag],
      user: [own(this.userPath)],
      project: [
        own(path.join(cwd, '.switchboard', 'settings.json')),
        claude(path.join(cwd, '.claude', 'settings.json')),
      ],
      local: [
        own(path.join(cwd, '.switchboard', 'settings.local.json')),
        claude(path.join(cwd, '.claude', 'settings.local.json')),
      ],
    };
  }

  /** Effective settings for a session, cached until any file changes. */
  effective(cwd: string, flag: ParsedSettings, cacheKey: string): EffectiveSettings {
    let e = this.#effective.get(cacheKey);
    if (e === undefined) {
      this.#use(cacheKey, this.filesFor(cwd));
      const layers = this.layers(cwd, flag);
      const key = [layers.managed, layers.flag, layers.user, layers.project, layers.local]
        .map((scope) => scope.map((p) => this.#layerId(p)).join(','))
        .join('/');
      e = this.#byLayers.get(key);
      if (e === undefined) this.#byLayers.set(key, (e = resolveSettings(layers)));
      this.#effective.set(cacheKey, e);
    }
    return e;
  }

  #layerId(parsed: ParsedSettings): number {
    let id = this.#layerIds.get(parsed);
    if (id === undefined) this.#layerIds.set(parsed, (id = this.#nextLayerId++));
    return id;
  }

  /** Settings no session is involved in (managed and user scopes only). */
  adminEffective(): EffectiveSettings {
    return this.effective('', emptyParsed(), '\0admin');
  }

  forget(cacheKey: string): void {
    this.#effective.delete(cacheKey);
    if (this.#effective.size === 0) this.#byLayers.clear();
    this.#use(cacheKey, []);
  }

  /** Records the files `cacheKey` depends on now: a file nobody uses any more is forgotten, its folder unwatched. */
  #use(cacheKey: string, files: readonly string[]): void {
    const before = this.#filesOf.get(cacheKey) ?? [];
    if (files.length > 0) this.#filesOf.set(cacheKey, files);
    else this.#filesOf.delete(cacheKey);
    for (const file of files) {
      const n = this.#users.get(file) ?? 0;
      this.#users.set(file, n + 1);
      if (n === 0) this.#watch?.add(path.dirname(file));
    }
    for (const file of before) {
      const n = (this.#users.get(file) ?? 1) - 1;
      if (n > 0) {
        this.#users.set(file, n);
        continue;
      }
      this.#users.delete(file);
      this.#files.delete(file);
      this.#watch?.remove(path.dirname(file));
    }
  }

  /** Every problem currently known, for user interfaces. */
  problems(): SettingsProblem[] {
    return [...this.#files.values()].flatMap((f) => f.parsed.problems);
  }

  /** Re-stats every file in use (one read but in use by nobody is forgotten); returns true when any changed. */
  poll(): boolean {
    let changed = false;
    for (const [file, cached] of this.#files) {
      if (!this.#users.has(file)) {
        this.#files.delete(file);
        continue;
      }
      if (signature(file) === cached.sig) continue;
      this.#files.set(file, this.#read(file, cached.claude));
      changed = true;
    }
    if (changed) {
      this.#generation++;
      this.#effective.clear();
      this.#byLayers.clear();
    }
    return changed;
  }

  #file(file: string, claude: boolean): ParsedSettings {
    let cached = this.#files.get(file);
    if (cached === undefined) {
      cached = this.#read(file, claude);
      this.#files.set(file, cached);
    }
    return cached.parsed;
  }

  #read(file: string, claude: boolean): CachedFile {
    const sig = signature(file);
    if (sig === 'missing') return { sig, parsed: NOTHING, claude };
    const r = readBoundedSync(file, MAX_SETTINGS_BYTES);
    let parsed: ParsedSettings;
    if (r.state === 'text')
      parsed = parseSettingsText(r.text, file, claude ? { keys: CLAUDE_KEYS, strict: false } : { strict: true });
    else if (r.state === 'missing') parsed = emptyParsed();
    else {
      parsed = emptyParsed();
      parsed.broken = true;
      parsed.problems.push({ file, key: null, message: `unreadable (${r.problem})` });
    }
    this.#report(parsed.problems);
    return { sig, parsed, claude };
  }

  #report(problems: readonly SettingsProblem[]): void {
    for (const p of problems)
      this.#log.warn('settings problem; failing closed for this value', {
        file: p.file,
        key: p.key,
        problem: p.message,
      });
  }
}

function signature(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

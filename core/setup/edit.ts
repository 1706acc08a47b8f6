// Editing other programs' configuration files without losing anything:
// JSON/JSONC through jsonc-parser's modify (comments and formatting kept),
// TOML as whole marked text blocks (validated with smol-toml, which would
// drop comments if it wrote). A change is written with a timestamped backup
// of the original; a dry run only describes it.

import { replaceFileSync } from '../storage/atomic-write.js';
import fs from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { readBoundedSync } from '../storage/bounded-read.js';
import { CodedError } from '../protocol/coded-error.js';

/** An agent's configuration file larger than this is not one we edit. */
const CONFIG_MAX_BYTES = 4 * 1024 * 1024;

/** Setup refuses: a file it cannot read, parse or safely edit, or a request it cannot plan. */
export class SetupError extends CodedError<'setup_refused'> {
  override readonly name = 'SetupError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('setup_refused', message, options);
  }
}

export interface FileChange {
  file: string;
  before: string | null;
  after: string | null;
}

/**
 * Where an edit of `file` goes: the file a symbolic link points to (a dotfiles link stays a link; replacing the
 * link by a file broke it), or `file` itself.
 */
export function editTarget(file: string): string {
  try {
    return fs.lstatSync(file).isSymbolicLink() ? fs.realpathSync(file) : file;
  } catch {
    return file; // missing (or a dangling link, which readText then reports)
  }
}

/** The file's text, null when it does not exist; a FIFO, device, directory or oversized file is an error, never edited. */
export function readText(file: string): string | null {
  const read = readBoundedSync(file, CONFIG_MAX_BYTES);
  if (read.state === 'missing') return null;
  if (read.state === 'unreadable') throw new SetupError(`${file} ${read.problem}; nothing was changed`);
  return read.text;
}

/** Parses JSON with comments; a file that does not parse is an error, never overwritten. */
export function readJsonc(file: string, text: string | null): Record<string, unknown> {
  if (text === null || text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0)
    throw new SetupError(
      `${file} does not parse (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}); fix it first, nothing was changed`,
    );
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new SetupError(`${file} is not a JSON object; nothing was changed`);
  return value as Record<string, unknown>;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** Sets (or with `undefined`, removes) the value at `jsonPath`, keeping everything else. */
export function setJsonc(text: string, jsonPath: Array<string | number>, value: unknown): string {
  const base = text.trim() === '' ? '{}\n' : text;
  return applyEdits(base, modify(base, jsonPath, value, FORMAT));
}

export const TOML_BEGIN = '# >>> switchboard (added by `switchboard setup codex`; `--uninstall` removes it)';
export const TOML_END = '# <<< switchboard';

export function removeTomlBlock(text: string): string {
  const start = text.indexOf(TOML_BEGIN);
  if (start === -1) return text;
  const end = text.indexOf(TOML_END, start);
  if (end === -1) throw new SetupError(`the switchboard block in the Codex config has no end marker; fix it by hand`);
  let after = text.slice(end + TOML_END.length);
  if (after.startsWith('\n')) after = after.slice(1);
  let before = text.slice(0, start);
  if (before.endsWith('\n\n')) before = before.slice(0, -1);
  return before + after;
}

export function checkToml(file: string, text: string): Record<string, unknown> {
  try {
    return parseToml(text);
  } catch (err) {
    throw new SetupError(
      `${file} is not valid TOML (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); nothing was changed`,
    );
  }
}

/** Writes each change, first copying the original to `<file>.switchboard-backup-<time>`. */
export function applyChanges(changes: readonly FileChange[], now: Date): string[] {
  const backups: string[] = [];
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (const c of changes) {
    if (c.before === c.after) continue;
    fs.mkdirSync(path.dirname(c.file), { recursive: true });
    if (c.before !== null) {
      const backup = `${c.file}.switchboard-backup-${stamp}`;
      fs.copyFileSync(c.file, backup);
      backups.push(backup);
    }
    const mode = c.before !== null ? fs.statSync(c.file).mode & 0o777 : 0o600;
    replaceFileSync(c.file, c.after ?? '', mode);
  }
  return backups;
}

/** A readable description of a change: the lines that differ, with their context trimmed. */
export function describeChange(c: FileChange): string {
  if (c.before === c.after) return `${c.file}: no change`;
  const a = (c.before ?? '').split('\n');
  const b = (c.after ?? '').split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail).map((l) => `- ${l}`);
  const added = b.slice(head, b.length - tail).map((l) => `+ ${l}`);
  return [`--- ${c.file}${c.before === null ? ' (new file)' : ''}`, `@@ line ${head + 1}`, ...removed, ...added].join(
    '\n',
  );
}

// The error for another program's file that exists but cannot be read as its
// format (not a regular file, over the read limit, not valid JSON, the wrong
// shape). Whoever meets it writes nothing: the file stays byte-identical.

import { CodedError } from '../protocol/coded-error.js';

export type UnreadableKind = 'inbox_unreadable' | 'team_unreadable' | 'task_unreadable';

export class UnreadableFileError extends CodedError<UnreadableKind> {
  override readonly name = 'UnreadableFileError';
  readonly file: string;
  readonly problem: string;
  constructor(code: UnreadableKind, file: string, problem: string) {
    super(code, `${file}: ${problem}; nothing was written to it`);
    this.file = file;
    this.problem = problem;
  }
}

// A named failure with a code from a closed set, so every boundary answers
// a fixed code and never an internal error's text. A
// subclass only names itself; the name is a literal because bundles
// minify class names.

export class CodedError<C extends string> extends Error {
  readonly code: C;
  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

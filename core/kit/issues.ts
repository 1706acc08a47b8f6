// The one way a schema failure is told to a caller: at most ISSUES_SHOWN
// lines of "path: message", the path `root` when the whole value is wrong.

const ISSUES_SHOWN = 10;

/** A zod error, or anything with its `issues`. */
export interface Issues {
  readonly issues: ReadonlyArray<{ readonly path: readonly PropertyKey[]; readonly message: string }>;
}

export function formatIssues(err: Issues, root: string): string[] {
  return err.issues.slice(0, ISSUES_SHOWN).map((i) => `${i.path.map(String).join('.') || root}: ${i.message}`);
}

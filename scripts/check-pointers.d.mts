// Types of the pointer check (scripts/check-pointers.mjs), for its test.
export const SOURCE_DIRS: string[];
export const REASON_DIRS: string[];
export const ROUND: RegExp;
export function slug(heading: string): string;
export function anchorsOf(markdown: string): Set<string>;
export function commentsOf(source: string): Array<[number, string]>;
export function brokenIn(
  text: string,
  file: string,
  ports: {
    exists: (rel: string) => 'file' | 'dir' | null;
    anchors: (rel: string) => Set<string>;
    ignored?: (rel: string) => boolean;
  },
): string[];
export function filesOf(root: string): string[];
export function checkPointers(root: string, files?: string[]): string[];

// Types of the file-size check (scripts/check-file-size.mjs), for its test.
export const MAX_LINES: number;
export const SOURCE_DIRS: string[];
export const OVER: Record<string, number>;
export function lineCount(text: string): number;
export function oversize(root: string, over?: Record<string, number>, dirs?: string[]): string[];

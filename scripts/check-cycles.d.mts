// Types of the cycle check (scripts/check-cycles.mjs), for its test.
export function importsOf(file: string, text: string): string[];
export function findCycles(graph: Map<string, string[]>): string[][];
export function graphOf(root: string): Map<string, string[]>;

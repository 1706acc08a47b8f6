// Types of the test-title check (scripts/check-test-titles.mjs), for its test.
export const MAX_CLAUSES: number;
export function clauses(title: string): string[];
export function longTitles(root: string): string[];

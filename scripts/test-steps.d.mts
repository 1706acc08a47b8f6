// Types of the test steps (scripts/test-steps.mjs), for its test.
export interface TestStep {
  label: string;
  argv: string[];
  rerun: string;
  oneFile?: string;
}
export function testSteps(o: {
  skipInterop: boolean;
  skipAgents: boolean;
  second: { path: string; version: string } | null;
}): TestStep[];
export function failureReport(step: TestStep, index: number, total: number, how: string): string;

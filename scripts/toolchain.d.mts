// Types of the toolchain check (scripts/toolchain.mjs), for its tests.
export const MIN_NODE: [number, number];
export const PINNED: Record<'22' | '24', string>;
export function supportedNode(version: string): string | null;
export function nodeBinary(
  major: string | number,
  platform?: NodeJS.Platform,
  arch?: string,
): { path: string; version: string } | { why: string };
export function cachedPackage(spec: string, name: string, file: string): { path: string } | { why: string };

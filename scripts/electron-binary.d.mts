export function findElectronBinary(root?: string, env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): { path: string } | { path: null; why: string };
export function hasDisplay(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): boolean;

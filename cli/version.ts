// The product version, injected by the bundler; "dev" when run from source.
declare const SWITCHBOARD_VERSION: string | undefined;
export const VERSION: string = typeof SWITCHBOARD_VERSION === 'string' ? SWITCHBOARD_VERSION : 'dev';

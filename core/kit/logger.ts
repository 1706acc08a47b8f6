// The logger port. Composition roots pick the sink; core only calls it.
// Log lines go to stderr (never stdout: stdout carries protocol for `mcp`).

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function stderrLogger(minLevel: 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = { info: 0, warn: 1, error: 2 };
  const line = (level: 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => {
    if (order[level] < order[minLevel]) return;
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }) + '\n');
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

// What `switchboard service` writes, as text (cli/service/files.ts): the
// launchd agent parsed back (well-formed XML, ProgramArguments, RunAtLoad,
// KeepAlive), the systemd unit's quoting; and the command where neither
// exists (Windows): "not supported here yet", exit 1. The command run for
// real against a faked systemctl: test/cli/service.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { launchdPlistText, MARKER, systemdUnitText } from '../../cli/service/files.js';
import { service } from '../../cli/commands/service.js';
import { CliFailure } from '../../cli/common.js';

/** A minimal XML reader: elements with their children or text; throws on what is not well formed. */
type El = { tag: string; kids: El[]; text: string };
function parseXml(src: string): El {
  const body = src
    .replace(/^<\?xml[^?]*\?>/, '')
    .replace(/<!DOCTYPE[^>]*>/, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  const root: El = { tag: '#root', kids: [], text: '' };
  const stack = [root];
  for (const m of body.matchAll(/<(\/?)([A-Za-z]+)(\s[^>]*?)?(\/?)>|([^<]+)/g)) {
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      if (m[5].includes('>') || /&(?!amp;|lt;|gt;|quot;|apos;)/.test(m[5])) throw new Error(`bad text ${m[5]}`);
      top.text += m[5];
    } else if (m[1] === '/') {
      if (top.tag !== m[2]) throw new Error(`</${m[2]}> closes <${top.tag}>`);
      stack.pop();
    } else {
      const el: El = { tag: m[2]!, kids: [], text: '' };
      top.kids.push(el);
      if (m[4] !== '/') stack.push(el);
    }
  }
  if (stack.length !== 1 || root.kids.length !== 1) throw new Error('unbalanced document');
  return root.kids[0]!;
}

/** A plist <dict>'s entries: key → value element. */
function dict(el: El): Map<string, El> {
  const out = new Map<string, El>();
  for (let i = 0; i < el.kids.length; i += 2) out.set(el.kids[i]!.text, el.kids[i + 1]!);
  return out;
}

describe('the unit and the agent as text', () => {
  const spec = {
    node: '/opt/node 24/bin/node',
    cli: '/usr/lib/node_modules/switchboard/dist/cli/switch&board.mjs',
    env: [['SWITCHBOARD_HOME', '/home/a/100% "sb" $HOME'] as [string, string]],
  };

  it('the launchd agent is a well-formed plist with the keys launchd needs and our marker', () => {
    const text = launchdPlistText(spec, '/Users/a/Library/Logs/switchboard-hub.log');
    expect(text).toContain(MARKER);
    const plist = parseXml(text);
    expect(plist.tag).toBe('plist');
    const d = dict(plist.kids[0]!);
    expect(d.get('Label')?.text).toBe('dev.switchboard.hub');
    const args = d.get('ProgramArguments')!;
    expect(args.tag).toBe('array');
    expect(args.kids.map((k) => k.text.replace(/&amp;/g, '&'))).toEqual([spec.node, spec.cli, 'serve', '--ui']);
    expect(d.get('RunAtLoad')?.tag).toBe('true');
    expect(dict(d.get('KeepAlive')!).get('SuccessfulExit')?.tag).toBe('false');
    expect(Number(d.get('ThrottleInterval')?.text)).toBeGreaterThan(0);
    expect(d.get('StandardOutPath')?.text).toBe('/dev/null');
    expect(d.get('StandardErrorPath')?.text).toBe('/Users/a/Library/Logs/switchboard-hub.log');
    expect(dict(d.get('EnvironmentVariables')!).get('SWITCHBOARD_HOME')?.text).toBe(
      '/home/a/100% &quot;sb&quot; $HOME',
    );
  });

  it('the systemd unit quotes each path, doubling % and $ so systemd takes them literally', () => {
    const text = systemdUnitText(spec);
    expect(text).toContain(
      'ExecStart="/opt/node 24/bin/node" "/usr/lib/node_modules/switchboard/dist/cli/switch&board.mjs" serve --ui',
    );
    expect(text).toContain('Environment="SWITCHBOARD_HOME=/home/a/100%% \\"sb\\" $$HOME"');
  });
});

describe('where there is neither systemd nor launchd', () => {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  afterEach(() => Object.defineProperty(process, 'platform', platform));

  it('every subcommand fails with "not supported here yet" and exit 1', async () => {
    Object.defineProperty(process, 'platform', { value: 'win32' });
    const ctx = { json: false, out: () => undefined, err: () => undefined };
    for (const sub of ['install', 'uninstall', 'status']) {
      const err = await service([sub], ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CliFailure);
      expect((err as CliFailure).exitCode).toBe(1);
      expect((err as CliFailure).message).toContain('not supported here yet (win32)');
    }
  });
});

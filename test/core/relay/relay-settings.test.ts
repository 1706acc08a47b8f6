// The relay from a user interface: servers and machine are editable, the
// credentials in the file are kept and never shown, bad values are refused
// and nothing is written.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHub, tempDirs, type TestHub } from '../../helpers/hub.js';

let t: TestHub;
afterEach(async () => t?.close());

describe('relay settings from a user interface', () => {
  async function hubWithRelay() {
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    const file = path.join(dirs.home, 'settings.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ relay: { servers: ['nats://127.0.0.1:1'], token: 's3cret', machine: 'old' } }),
    );
    t = await startHub({}, dirs);
    return { c: await t.client(), ui: t.hub.uiToken, file };
  }

  it('shows the relay settings with the token hidden', async () => {
    const { c, ui } = await hubWithRelay();
    const shown = (
      (await c.call('settings.effective', { uiToken: ui })).effective as { relay: { value: Record<string, unknown> } }
    ).relay.value;
    expect(shown).toEqual({ servers: ['nats://127.0.0.1:1'], token: '(set)', machine: 'old' });
    expect(JSON.stringify(await c.call('settings.effective', { uiToken: ui }))).not.toContain('s3cret');
  });

  it('an edit of servers and machine keeps the stored token and applies at once', async () => {
    const { c, ui, file } = await hubWithRelay();
    await c.call('settings.set', {
      uiToken: ui,
      key: 'relay',
      value: { servers: ['nats://127.0.0.1:2'], machine: 'laptop' },
    });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      relay: { token: 's3cret', servers: ['nats://127.0.0.1:2'], machine: 'laptop' },
    });
    expect(t.hub.remote.relay?.machine).toBe('laptop');
  });

  it('refuses a token, a server that is not NATS or a bad machine name, and writes nothing', async () => {
    const { c, ui, file } = await hubWithRelay();
    const before = fs.readFileSync(file, 'utf8');
    await expect(
      c.call('settings.set', { uiToken: ui, key: 'relay', value: { servers: ['nats://x:1'], token: 'stolen' } }),
      'a token from a user interface',
    ).rejects.toMatchObject({ reason: 'invalid_params' });
    await expect(
      c.call('settings.set', { uiToken: ui, key: 'relay', value: { servers: ['http://x'] } }),
      'an http server',
    ).rejects.toMatchObject({ reason: 'invalid_params' });
    await expect(
      c.call('settings.set', { uiToken: ui, key: 'relay', value: { servers: [], machine: 'a/b' } }),
      'a machine name with a slash',
    ).rejects.toMatchObject({ reason: 'invalid_params' });
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('clearing the relay removes it from the file and from the running hub', async () => {
    const { c, ui, file } = await hubWithRelay();
    await c.call('settings.set', { uiToken: ui, key: 'relay', value: null });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({});
    expect(t.hub.remote.relay).toBeUndefined();
  });
});

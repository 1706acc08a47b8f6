// crossSessionScope "project": sessions of unrelated repositories neither
// list nor message each other; a send to another project is refused with a
// reason that says so; a repository can turn it on for itself (never off);
// the listing says which scope applies; the person (UI) still sees all.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Registration } from '../../core/protocol/methods.js';
import { projectRoot } from '../../core/policy/scope.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/temp.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

/** Two git work trees under the test root: `a` (with a subfolder) and `b`. */
function repos(root: string, settingsFor?: string): { a: string; aSub: string; b: string } {
  const a = path.join(root, 'a');
  const b = path.join(root, 'b');
  for (const r of [a, b]) fs.mkdirSync(path.join(r, '.git'), { recursive: true });
  const aSub = path.join(a, 'packages', 'web');
  fs.mkdirSync(aSub, { recursive: true });
  if (settingsFor !== undefined) {
    fs.mkdirSync(path.join(settingsFor, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(settingsFor, '.claude', 'settings.json'),
      JSON.stringify({ crossSessionScope: 'project' }),
    );
  }
  return { a, aSub, b };
}

describe('project scope', () => {
  it('finds the git work tree top, else the folder', () => {
    const root = tempDir();
    const { a, aSub } = repos(root);
    expect(projectRoot(aSub)).toBe(a);
    expect(projectRoot(root)).toBe(root);
  });

  describe('with the user scope "project"', () => {
    /** api and web share repo a (web in a subfolder); other is in repo b. */
    async function scoped() {
      th = await startHub();
      fs.mkdirSync(th.dirs.home, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(th.dirs.home, 'settings.json'), JSON.stringify({ crossSessionScope: 'project' }));
      await th.hub.settingsChanged();
      const { a, aSub, b } = repos(th.dirs.root);
      const c = await th.client();
      const api = await th.register(c, { name: 'api', cwd: a });
      await th.register(c, { name: 'web', cwd: aSub });
      await th.register(c, { name: 'other', cwd: b });
      return { c, api, a };
    }

    it("a session's listing holds its own project only", async () => {
      const { c, api, a } = await scoped();
      const listed = await c.call('agents.list', auth(api));
      expect(listed.rows.map((r) => r.name).sort()).toEqual(['api', 'web']);
      expect(listed.scope).toEqual({ value: 'project', source: 'user', project: a });
    });

    it('a send inside the project goes', async () => {
      const { c, api } = await scoped();
      expect(
        (await c.call('message.send', { ...auth(api), to: 'web', summary: 's', message: 'same repo' })).status,
      ).toBe('queued');
    });

    it('a send to another project is refused, saying the scope is why', async () => {
      const { c, api } = await scoped();
      const out = await c.call('message.send', { ...auth(api), to: 'other', summary: 's', message: 'other repo' });
      expect(out.status).toBe('refused');
      expect(out.reason).toContain('is in another project, and crossSessionScope is "project"');
      expect(out.note).not.toContain('inbound policy');
    });

    it('the UI still sees every session', async () => {
      const { c } = await scoped();
      expect((await c.call('agents.list', {})).rows).toHaveLength(3); // the person's view
    });
  });

  it('a project-scoped sender resolves names in its own project first: no ambiguity or candidates from another', async () => {
    th = await startHub();
    fs.mkdirSync(th.dirs.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(th.dirs.home, 'settings.json'), JSON.stringify({ crossSessionScope: 'project' }));
    await th.hub.settingsChanged();
    const { a, b } = repos(th.dirs.root);
    const c = await th.client();
    const web = await th.register(c, { name: 'web', cwd: a });
    await th.register(c, { name: 'apiserver', cwd: a });
    await th.register(c, { name: 'apiclient', cwd: b });
    await th.register(c, { name: 'billing', cwd: b });
    // "api" starts two names on this machine, one in this project: it is that one, not ambiguous.
    const sent = await c.call('message.send', { ...auth(web), to: 'api', summary: 's', message: 'x' });
    expect(sent).toMatchObject({ status: 'queued', to: { name: 'apiserver' } });
    // A typo is answered with this project's names only.
    const err = (await c.call('message.send', { ...auth(web), to: 'apiservr', summary: 's', message: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { reason: string; data: { candidates?: string[] } };
    expect(err.reason).toBe('target_not_found');
    expect((err.data.candidates ?? []).join(' ')).not.toContain('apiclient');
    // A name only another project has is still refused by the scope, with its reason.
    const out = await c.call('message.send', { ...auth(web), to: 'billing', summary: 's', message: 'x' });
    expect(out.status).toBe('refused');
  });

  it("a repository turns it on for itself: its sessions and the others' no longer reach each other", async () => {
    th = await startHub();
    const { a, b } = repos(th.dirs.root, path.join(th.dirs.root, 'b'));
    const c = await th.client();
    const api = await th.register(c, { name: 'api', cwd: a });
    const locked = await th.register(c, { name: 'locked', cwd: b });
    expect((await c.call('agents.list', auth(api))).rows.map((r) => r.name)).toEqual(['api']);
    expect((await c.call('message.send', { ...auth(api), to: 'locked', summary: 's', message: 'x' })).status).toBe(
      'refused',
    );
    expect((await c.call('message.send', { ...auth(locked), to: 'api', summary: 's', message: 'x' })).status).toBe(
      'refused',
    );
    expect((await c.call('agents.list', auth(locked))).scope?.source).toBe('project');
  });
});

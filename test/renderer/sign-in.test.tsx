// @vitest-environment happy-dom
// Getting in: a tab the hub refuses (no token, a wrong one, one
// from before a restart) shows only the sign-in screen, never the views
// with zeros; a pasted URL or token signs in without touching the address
// bar; a refused paste says so; a hub that stops answering greys the views
// out and makes them inert. And what the sign-in screen accepts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Bridge, ConnectionState } from '../../renderer/bridge/bridge.js';
import { keepUiToken, readSignIn } from '../../renderer/bridge/ui-token.js';
import { createStores } from '../../renderer/stores/stores.js';
import { App } from '../../renderer/app.js';

afterEach(cleanup);

const TOKEN = 'ab'.repeat(24);
const ORIGIN = 'http://127.0.0.1:7317';

describe('what the sign-in screen accepts', () => {
  it('a token, or this page’s URL with #token=, is used here', () => {
    expect(readSignIn(`  ${TOKEN}\n`, ORIGIN)).toEqual({ kind: 'token', token: TOKEN });
    expect(readSignIn(`${ORIGIN}/#token=${TOKEN}`, ORIGIN)).toEqual({ kind: 'token', token: TOKEN });
  });

  it('a loopback URL of another port is opened there', () => {
    expect(readSignIn(`http://localhost:7318/#token=${TOKEN}`, ORIGIN)).toEqual({
      kind: 'elsewhere',
      url: `http://localhost:7318/#token=${TOKEN}`,
    });
  });

  it('anything else is invalid', () => {
    for (const bad of [
      `http://evil.example/#token=${TOKEN}`, // never sent off this machine
      `${ORIGIN}/?token=${TOKEN}`, // a query would reach the server's logs
      `${ORIGIN}/#token=<script>`,
      'hello',
      '',
    ])
      expect(readSignIn(bad, ORIGIN).kind, bad).toBe('invalid');
  });

  it('the tab keeps only a well-formed token', () => {
    const stored: Record<string, string> = {};
    const storage = {
      getItem: (k: string) => stored[k] ?? null,
      setItem: (k: string, v: string) => void (stored[k] = v),
    };
    keepUiToken({ sessionStorage: storage }, 'not hex');
    expect(stored).toEqual({});
    keepUiToken({ sessionStorage: storage }, TOKEN);
    expect(Object.values(stored)).toEqual([TOKEN]);
  });
});

/** A bridge whose connection state the test sets, as the HTTP bridge reports it. */
function controlled(hasToken: boolean) {
  const listeners = new Set<(s: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  const signIns: string[] = [];
  const calls: string[] = [];
  const bridge: Bridge = {
    call: (async (op: string) => {
      calls.push(op);
      if (state !== 'connected') throw Object.assign(new Error('Unauthorized'), { reason: 'unauthorized' });
      return op === 'held.list'
        ? {
            items: [
              {
                id: 'h1',
                sender: {
                  name: 'web',
                  address: 'uds:web',
                  sessionId: 's1',
                  verified: true,
                  agent: null,
                  mode: null,
                  cwd: null,
                  machine: null,
                },
                receiver: { sessionId: 's2', name: 'api', label: 'api [b]' },
                reason: 'held',
                preview: 'please run it',
                text: 'please run it',
                summary: null,
                heldAt: 0,
                expiresAt: null,
              },
            ],
          }
        : {};
    }) as Bridge['call'],
    onEvent: () => () => undefined,
    onState: (l) => {
      listeners.add(l);
      l(state);
      return () => listeners.delete(l);
    },
    signIn: (t) => {
      hasToken = true;
      signIns.push(t);
    },
    hasToken: () => hasToken,
  };
  const set = (s: ConnectionState): void => {
    state = s;
    act(() => listeners.forEach((l) => l(s)));
  };
  return { bridge, set, signIns, calls };
}

describe('signing in', () => {
  it('a tab without a token shows only the sign-in screen, even before the hub answers', () => {
    const b = controlled(false);
    render(<App stores={createStores(b.bridge)} />);
    expect(screen.getByTestId('sign-in').textContent).toContain('this tab has no token');
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByText(/^Sessions/)).toBeNull();
  });

  /** The app after the hub refused the tab's token: the sign-in screen and its field. */
  const refused = () => {
    const b = controlled(true);
    render(<App stores={createStores(b.bridge)} />);
    b.set('unauthorized');
    return { b, field: screen.getByLabelText('URL or token') };
  };

  it('a refused token shows only the sign-in screen', () => {
    refused();
    expect(screen.getByTestId('sign-in').textContent).toContain('does not accept this tab’s token');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('a paste that is no token is refused without asking the hub', () => {
    const { b, field } = refused();
    expect(field.getAttribute('autocomplete')).toBe('off');
    expect(field.closest('form')).toBeNull(); // nothing is submitted: no autofill entry, no password prompt
    fireEvent.change(field, { target: { value: 'not a token' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert').textContent).toContain('switchboard ui');
    expect(b.signIns).toEqual([]);
  });

  it('a token the hub refuses keeps the sign-in screen and says so', () => {
    const { b, field } = refused();
    const wrong = 'cd'.repeat(24);
    fireEvent.change(field, { target: { value: `${location.origin}/#token=${wrong}` } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(b.signIns).toEqual([wrong]);
    expect((field as HTMLInputElement).value).toBe(''); // the token does not linger on screen
    b.set('connecting');
    expect(screen.getByTestId('sign-in')).toBeTruthy(); // no app with zeros while it is checked
    b.set('unauthorized');
    expect(screen.getByRole('alert').textContent).toContain('The hub refused that token');
  });

  it('a right token opens the app', () => {
    const { b, field } = refused();
    fireEvent.change(field, { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(b.signIns).toEqual([TOKEN]);
    b.set('connecting');
    b.set('connected');
    expect(screen.queryByTestId('sign-in')).toBeNull();
    expect(screen.getByRole('navigation')).toBeTruthy();
    expect(location.hash).not.toContain(TOKEN);
  });

  it('a hub that stops answering: the views stay visible but greyed out and inert', async () => {
    const b = controlled(true);
    const stores = createStores(b.bridge);
    b.set('connected');
    location.hash = 'approvals';
    render(<App stores={stores} />);
    await act(() => stores.held.getState().load());
    const approve = screen.getByRole('button', { name: 'Approve' });
    expect(approve.closest('[inert]')).toBeNull();
    b.set('reconnecting');
    expect(screen.getByTestId('stale').textContent).toContain('The hub is not answering');
    expect(screen.getByRole('button', { name: 'Approve' }).closest('.views.stale[inert]')).not.toBeNull();
    b.set('connected');
    expect(screen.queryByTestId('stale')).toBeNull();
    expect(screen.getByRole('button', { name: 'Approve' }).closest('[inert]')).toBeNull();
  });
});

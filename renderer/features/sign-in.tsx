// The sign-in screen, shown instead of every view while the hub refuses
// this tab's token (none yet, a wrong one, or an old one: the hub makes a
// new token at every start). It takes what `switchboard ui` prints — the
// URL, or the token alone — and hands the token to the bridge, never to the
// address bar: no <form> is submitted (no autofill entry, no password
// manager prompt), the field is cleared, and a URL for another port is
// opened as the printed URL would be. A refused token says so.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Bridge, ConnectionState } from '../bridge/bridge.js';
import { readSignIn } from '../bridge/ui-token.js';

export function SignIn(props: {
  bridge: Bridge;
  connection: ConnectionState;
  /** Opens a URL for another port (location.assign in the page). */
  open: (url: string) => void;
  origin: string;
}): ReactNode {
  const { bridge, connection } = props;
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const hadToken = useRef(bridge.hasToken?.() === true);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!checking || connection !== 'unauthorized') return;
    setChecking(false);
    setNote('The hub refused that token: it is not the running hub’s (a hub makes a new one at every start).');
    field.current?.focus();
  }, [checking, connection]);
  const submit = (): void => {
    const r = readSignIn(text, props.origin);
    if (r.kind === 'invalid') return setNote(r.why);
    setText('');
    if (r.kind === 'elsewhere') return props.open(r.url);
    setNote(null);
    setChecking(true);
    hadToken.current = true;
    bridge.signIn?.(r.token);
  };
  return (
    <div className="sign-in" data-testid="sign-in">
      <h1>Switchboard</h1>
      <h2>Sign in</h2>
      <p role="status">
        Not signed in:{' '}
        {hadToken.current
          ? 'the hub does not accept this tab’s token. It restarted (each start makes a new token), or the token is wrong.'
          : 'this tab has no token. Open the URL the hub printed, or paste it here.'}
      </p>
      <p>
        In a terminal, run <code>switchboard ui</code>: it prints this hub’s address with its token. Paste that URL, or
        just the token after <code>#token=</code>.
      </p>
      <div className="actions">
        <input
          ref={field}
          aria-label="URL or token"
          className="token-field"
          type="text"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={text}
          placeholder="http://127.0.0.1:7317/#token=…"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') submit();
          }}
          autoFocus
        />
        <button className="approve" onClick={submit} disabled={text.trim() === '' || checking}>
          {checking ? 'Checking…' : 'Sign in'}
        </button>
      </div>
      {note !== null && (
        <p className="error" role="alert">
          {note}
        </p>
      )}
      <p className="dim">
        The token stays in this tab only (gone when you close it); it is never put in the address bar or a cookie. No
        hub running? Start one with <code>switchboard serve --ui</code>.
      </p>
    </div>
  );
}

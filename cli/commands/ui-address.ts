// `switchboard ui`: the running hub's web UI address again, with its token
// in the fragment, for the person who lost the URL `serve --ui` printed (as
// `jupyter server list` does). Asked over the hub's private socket
// (`ui.address`), printed on stdout only: never written to a file and never
// handed to another program's argv (no --open: `xdg-open URL` would show the
// token to every local user in `ps`). A hub without a web UI says how to get one.

import { RpcError } from '../../core/client/client.js';
import { atMost, CliFailure, parse, withHub, type Ctx } from '../common.js';

export const UI_ADDRESS_HELP = `switchboard ui [--print-token]
  Prints the running hub's user-interface URL with its token (after "#"): open it in a
  browser on this machine, or paste it into the page's sign-in screen. Only this OS user
  can ask (the hub's socket is private); the token is printed here, never stored.
  --print-token prints the token alone: export SWITCHBOARD_UI_TOKEN=$(switchboard ui --print-token)`;

export async function uiAddress(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(args, { 'print-token': { type: 'boolean' } }, true, 'ui');
  atMost(positionals, 0, 'switchboard ui');
  const r = await withHub(async (c) => {
    try {
      return await c.call('ui.address', {});
    } catch (err) {
      if (err instanceof RpcError && err.reason === 'method_not_found')
        throw new CliFailure(
          'hub_too_old',
          'The running hub is older than this switchboard and cannot give its address; open the URL it printed when it started, or restart it',
        );
      throw err;
    }
  });
  if (r.url === null)
    throw new CliFailure(
      'no_ui',
      'The running hub serves no web user interface (started without --ui, or it is the desktop app: open its window from the menu-bar icon). Stop it and run: switchboard serve --ui',
    );
  if (values['print-token'] === true) ctx.out(ctx.json ? JSON.stringify({ token: tokenOf(r.url) }) : tokenOf(r.url));
  else ctx.out(ctx.json ? JSON.stringify({ url: r.url, port: r.port }) : r.url);
  return 0;
}

/** The token in the URL's fragment (`#token=…`), as the hub wrote it. */
function tokenOf(url: string): string {
  const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
  if (token === null) throw new CliFailure('internal', 'The hub gave a user-interface address without its token');
  return token;
}

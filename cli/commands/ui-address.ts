// `switchboard ui`: the running hub's web UI address again, with its token
// in the fragment, for the person who lost the URL `serve --ui` printed (as
// `jupyter server list` does). Asked over the hub's private socket
// (`ui.address`), printed on stdout only: never written to a file and never
// handed to another program's argv (no --open: `xdg-open URL` would show the
// token to every local user in `ps`). A hub without a web UI says how to get one.

import { RpcError } from '../../core/client/client.js';
import { atMost, CliFailure, parse, withHub, type Ctx } from '../common.js';

export const UI_ADDRESS_HELP = `switchboard ui
  Prints the running hub's user-interface URL with its token (after "#"): open it in a
  browser on this machine, or paste it into the page's sign-in screen. Only this OS user
  can ask (the hub's socket is private); the token is printed here, never stored.`;

export async function uiAddress(args: string[], ctx: Ctx): Promise<number> {
  const { positionals } = parse(args, {}, true, 'ui');
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
  ctx.out(ctx.json ? JSON.stringify({ url: r.url, port: r.port }) : r.url);
  return 0;
}

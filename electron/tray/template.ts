// Turns the pure tray items into Electron's menu template, wiring each
// action to one dispatcher. Type-only use of Electron: testable under Node.

import type { MenuItemConstructorOptions } from 'electron';
import type { TrayAction, TrayItem } from './menu.js';

export function toMenuTemplate(items: TrayItem[], dispatch: (a: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    const out: MenuItemConstructorOptions = { type: item.type ?? 'normal' };
    if (item.label !== undefined) out.label = item.label;
    if (item.enabled !== undefined) out.enabled = item.enabled;
    if (item.checked !== undefined) out.checked = item.checked;
    if (item.submenu !== undefined) out.submenu = toMenuTemplate(item.submenu, dispatch);
    const action = item.action;
    if (action !== undefined) out.click = () => dispatch(action);
    return out;
  });
}

// The preload: exposes exactly one object, `window.switchboard`, with
// `call(operation, input)` for the allow-listed operations of the contract
// and `onEvent(listener)` for pushed hub events. It never exposes
// ipcRenderer, Electron events or Node objects, and imports no npm code
// (it runs sandboxed; esbuild bundles the contract's names in).

import { contextBridge, ipcRenderer } from 'electron';
import { exposedApi } from './bridge.js';

contextBridge.exposeInMainWorld('switchboard', exposedApi(ipcRenderer));

// Entry: picks the bridge (the preload's object inside Electron, HTTP in a
// browser) and renders the app.
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { electronBridge, preloadApi } from './bridge/electron.js';
import { httpBridge } from './bridge/http.js';
import { createStores } from './stores/stores.js';

const api = preloadApi(window);
const root = document.getElementById('root');
if (root !== null) createRoot(root).render(<App stores={createStores(api ? electronBridge(api) : httpBridge())} />);

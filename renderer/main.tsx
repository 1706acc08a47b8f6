// Entry: picks the bridge (the HTTP one in a browser) and renders the app.
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { httpBridge } from './bridge/http.js';
import { createStores } from './stores/stores.js';

const root = document.getElementById('root');
if (root !== null) createRoot(root).render(<App stores={createStores(httpBridge())} />);

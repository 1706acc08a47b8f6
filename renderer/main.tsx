// Entry: picks the bridge (the preload's object inside Electron, HTTP in a
// browser, with the UI token taken from the URL fragment) and renders the app.
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { electronBridge, preloadApi } from './bridge/electron.js';
import { httpBridge } from './bridge/http.js';
import { keepUiToken, takeUiToken } from './bridge/ui-token.js';
import { createStores } from './stores/stores.js';

const api = preloadApi(window);
const root = document.getElementById('root');
const browserBridge = () => {
  let token = takeUiToken(window); // before App reads location.hash for its view
  return httpBridge({
    token: () => token,
    // The sign-in screen: the pasted token goes to this tab's sessionStorage, never into the address bar.
    keepToken: (t) => {
      keepUiToken(window, t);
      token = t;
    },
    // Opening a new printed URL in this tab (the hub restarted) changes only the fragment: no reload.
    onTokenChange: (listener) =>
      window.addEventListener('hashchange', () => {
        if (!location.hash.startsWith('#token=')) return;
        token = takeUiToken(window);
        listener();
      }),
  });
};
if (root !== null) createRoot(root).render(<App stores={createStores(api ? electronBridge(api) : browserBridge())} />);

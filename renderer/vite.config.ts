// Builds the renderer into dist/renderer (served by `serve --ui`, loaded by
// Electron over app://). No inline scripts or styles: the CSP forbids them.
import { defineConfig } from 'vite';

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: './',
  build: {
    outDir: new URL('../dist/renderer', import.meta.url).pathname,
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  logLevel: 'warn',
});

// Vite's `?raw` imports (the file's text), for tests that read the renderer's own CSS and HTML.
declare module '*?raw' {
  const text: string;
  export default text;
}

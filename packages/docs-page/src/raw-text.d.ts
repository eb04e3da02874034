// A `<file>?raw` import is the file's text: Vite (so Vitest) reads it that way, and the build
// (tsup.config.ts) embeds it that way, so the page's files need no filesystem at run time.
declare module '*?raw' {
  const text: string;
  export default text;
}

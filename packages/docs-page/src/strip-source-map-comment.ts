// The last line of a bundled file: `//# sourceMappingURL=…` in JavaScript, `/*# sourceMappingURL=… */`
// in CSS (`@` instead of `#` from older tools).
const SOURCE_MAP_COMMENT = /^(?:\/\/[#@] sourceMappingURL=\S*|\/\*[#@] sourceMappingURL=\S*?\s*\*\/)$/;

/**
 * The file without its trailing source map comment, if it has one: the build
 * embeds Swagger UI's files through it (tsup.config.ts). The maps are not served,
 * and a browser's developer tools would ask for them and log 404s.
 */
export function stripSourceMapComment(text: string): string {
  const trimmed = text.trimEnd();
  const lineStart = trimmed.lastIndexOf('\n') + 1;
  if (!SOURCE_MAP_COMMENT.test(trimmed.slice(lineStart))) return text;
  return `${trimmed.slice(0, lineStart).trimEnd()}\n`;
}

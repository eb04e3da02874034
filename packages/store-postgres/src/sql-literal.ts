// Runs wherever the store runs (Node, Bun, Deno): plain string work, no I/O.

/**
 * `text` as a PostgreSQL escape-string constant, `E'…'`: backslashes and
 * quotes doubled. The escape form means the same whatever
 * `standard_conforming_strings` says. The store only quotes JSON string
 * literals (`JSON.stringify` output), which never hold U+0000 (PostgreSQL text
 * cannot) and hold lone surrogates only as `\uD800` escapes.
 *
 * @example
 * sqlLiteral(`"it's"`) // E'"it''s"'
 */
export function sqlLiteral(text: string): string {
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

// Runs wherever the store runs (Node, Bun, Deno), with postgres.js 3.4.9.

/**
 * SQL text that postgres.js writes out only when it sends the query on a
 * connection: `sql.unsafe()` keeps the object it is given and makes it a
 * string in `toBuffer`, as the query goes on the wire (postgres.js 3.4.9,
 * `src/connection.js`). So the text can say how much time its create has left
 * at that moment, and a statement that waited past its deadline (a reconnect
 * that took long) goes out as a harmless `SELECT` instead of an INSERT whose
 * client was told 503 long ago.
 *
 * A workaround tied to the driver's internals: `postgres-faults.test.ts`
 * ("a statement sent past its deadline stores nothing") fails if a new
 * postgres.js makes the string earlier; then the deadline would be counted
 * from when the query was queued, which still bounds it, but the late INSERT
 * would run.
 *
 * @param build Called once, as the query is sent; returns the SQL text.
 */
export function atSend(build: () => string): string {
  return { toString: build } as unknown as string;
}

// Runs in the test process (Node, Linux): which of a set of client connections a server still holds, or has
// answered, from /proc/net/tcp.
import { readFileSync } from 'node:fs';

// TCP states (include/net/tcp_states.h) in which the server's end is still open: the connection is
// established, or the client closed and the server has not.
const HELD_STATES = new Set(['01', '08']);

/**
 * How many of the connections from `clientPorts` (the clients' local ports)
 * to `serverPort` on 127.0.0.1 the server still holds open. Read from the
 * kernel's table, not from the server's descriptors, so that connections the
 * server makes for itself (a check connection, a front's connections to
 * workerd) and the test's own other clients do not count, and so that a
 * client that never reads learns it was cut though it never reads the reset.
 */
export function heldConnections(serverPort: number, clientPorts: ReadonlySet<number>): number {
  // The kernel writes the table in pieces: an entry may be read twice while connections come and go.
  const held = new Set<number>();
  const lines = readFileSync('/proc/net/tcp', 'utf8').split('\n');
  for (let i = 1; i < lines.length; i++) {
    const fields = lines[i]!.trim().split(/\s+/);
    if (fields.length < 4) continue;
    const [, local, remote, state] = fields;
    if (!HELD_STATES.has(state!)) continue;
    if (Number.parseInt(local!.slice(local!.indexOf(':') + 1), 16) !== serverPort) continue;
    const client = Number.parseInt(remote!.slice(remote!.indexOf(':') + 1), 16);
    if (clientPorts.has(client)) held.add(client);
  }
  return held.size;
}

/**
 * How many of the connections from `clientPorts` to `serverPort` have answer
 * bytes waiting in the client's own receive queue (the kernel's table):
 * answered, though the client reads none of it. The server's port is
 * matched too, since one local port may serve connections to several servers.
 */
export function answeredUnread(serverPort: number, clientPorts: ReadonlySet<number>): number {
  const answered = new Set<number>();
  const lines = readFileSync('/proc/net/tcp', 'utf8').split('\n');
  for (let i = 1; i < lines.length; i++) {
    const [, local, remote, , queues] = lines[i]!.trim().split(/\s+/);
    if (queues === undefined) continue;
    if (Number.parseInt(remote!.slice(remote!.indexOf(':') + 1), 16) !== serverPort) continue;
    const client = Number.parseInt(local!.slice(local!.indexOf(':') + 1), 16);
    if (clientPorts.has(client) && Number.parseInt(queues.slice(queues.indexOf(':') + 1), 16) > 0) answered.add(client);
  }
  return answered.size;
}

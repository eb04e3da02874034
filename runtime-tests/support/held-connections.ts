// Runs in the test process (Node, Linux): which of a set of client connections a server still holds, or has
// answered, from /proc/net/tcp.
import { readFileSync } from 'node:fs';

// TCP states (include/net/tcp_states.h) in which the server's end is still open: the connection is
// established, or the client closed and the server has not.
const HELD_STATES = new Set(['01', '08']);

/** One IPv4 connection end of the kernel's table. */
interface TcpEntry {
  readonly localPort: number;
  readonly remotePort: number;
  /** The state, as the table writes it (two hex digits). */
  readonly state: string;
  /** Bytes received and not yet read by its owner. */
  readonly receiveQueue: number;
}

/** Every entry of /proc/net/tcp, read once. */
function tcpTable(): TcpEntry[] {
  const entries: TcpEntry[] = [];
  const lines = readFileSync('/proc/net/tcp', 'utf8').split('\n');
  for (let i = 1; i < lines.length; i++) {
    const [, local, remote, state, queues] = lines[i]!.trim().split(/\s+/);
    if (queues === undefined) continue;
    const port = (address: string) => Number.parseInt(address.slice(address.indexOf(':') + 1), 16);
    entries.push({
      localPort: port(local!),
      remotePort: port(remote!),
      state: state!,
      receiveQueue: Number.parseInt(queues.slice(queues.indexOf(':') + 1), 16),
    });
  }
  return entries;
}

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
  for (const { localPort, remotePort, state } of tcpTable()) {
    if (HELD_STATES.has(state) && localPort === serverPort && clientPorts.has(remotePort)) held.add(remotePort);
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
  for (const { localPort, remotePort, receiveQueue } of tcpTable()) {
    if (remotePort === serverPort && clientPorts.has(localPort) && receiveQueue > 0) answered.add(localPort);
  }
  return answered.size;
}

/**
 * How many sockets listen on `port` (IPv4): more than one while processes, or
 * servers of one process, share it with SO_REUSEPORT, as the standalone Bun
 * server's old and new servers do for a moment after a certificate renewal.
 */
export function listeners(port: number): number {
  const LISTEN = '0A';
  // Listening sockets do not come and go as connections do: no entry is read twice.
  return tcpTable().filter(({ localPort, remotePort, state }) => state === LISTEN && localPort === port && remotePort === 0).length;
}

// Runs on bare Deno (node:net, no Plant Store code), for runtime-tests/quirks.test.ts's deno-accept-after-emfile
// canary; only node: modules, so that Node 24 can run it too and show the accept loop Deno's lacks. A node:net
// server that greets each connection it accepts with `accepted <n>`, and on a connection's request takes or
// gives back every free file descriptor, so that the canary can make one accept fail with EMFILE and then watch
// whether the listener ever accepts again.
//
// On a connection, lines:
// - `exhaust`: opens /dev/null until that fails, holds every descriptor, and answers `exhausted <n> <error code>`;
// - `free`: closes them, one turn of the event loop later, and answers `freed <n>`. The turn lets Deno first try
//   the accept of a connection made before `free` was sent: on a busy machine it may read `free` in the same
//   turn as it learns of that connection, and would otherwise accept it with the descriptors back.
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import process from 'node:process';

// Registered before the descriptors run out: Deno 2.9.6 sets up its signal handling on first use (one pipe),
// about half a second after start by itself, and panics (ext/signals, EMFILE) if no descriptor is free then.
process.on('SIGUSR2', () => {});

const held: number[] = [];
let accepted = 0;
const server = createServer((socket) => {
  socket.write(`accepted ${++accepted}\n`);
  socket.on('error', () => {});
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line === 'exhaust') {
        let code = 'none';
        try {
          for (;;) held.push(openSync('/dev/null', 'r'));
        } catch (error) {
          code = (error as NodeJS.ErrnoException).code ?? String(error);
        }
        socket.write(`exhausted ${held.length} ${code}\n`);
      } else if (line === 'free') {
        setTimeout(() => {
          const count = held.length;
          for (const fd of held.splice(0)) closeSync(fd);
          socket.write(`freed ${count}\n`);
        }, 0);
      }
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});

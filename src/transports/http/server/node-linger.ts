// Lingering close (as nginx's lingering_close): a response that refuses a request body it did not
// read (413, 408) ends the connection, but closing the socket while the client is still sending
// makes the kernel answer its next bytes with a reset, and the client may lose the refusal it has
// not read yet. So the socket is half-closed (our FIN after the response) and the rest of what
// the client sends is read and discarded, for a bounded time and size, before it is destroyed.
import type { Socket } from 'node:net';

/** How long a refused request's connection is kept reading after the response. */
export const LINGER_MS: number = 5_000;
/** How many bytes it may read meanwhile before it is destroyed. */
export const LINGER_BYTES: number = 16 * 1024 * 1024;

/**
 * Makes node:http's close of `socket` (its `destroySoon`, called once a `Connection: close`
 * response is out) linger: end our side, discard what still comes, destroy after LINGER_MS or
 * LINGER_BYTES, whichever comes first, or as soon as the client closes.
 */
export function lingerOnClose(socket: Socket | null): void {
  if (socket === null || socket.destroyed) return;
  socket.destroySoon = lingering;
}

/** The `destroySoon` of a socket whose close lingers. */
function lingering(this: Socket): void {
  linger(this);
}

function linger(socket: Socket): void {
  socket.end();
  let read = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) socket.destroy();
  });
  socket.once('close', () => {
    clearTimeout(timer);
  });
  // node:http's parser may have let go of the socket: keep it flowing so the bytes are discarded.
  socket.resume();
}

/**
 * One event reaches every subscriber on a socket in the same turn of the event loop (the hub
 * fans out per agent and shares one execution), so a socket holding 100 subscriptions got 100
 * frames, each its own write system call. Corking the socket at the first frame of a turn and
 * uncorking it once the turn's microtasks are done sends them in one write: the profile of the
 * fan-out bench had socket writes as its largest item, on the same thread as every mutation.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

export function coalesceSocketWrites(ws: WebSocket): void {
  // ws keeps its TCP socket private; it is the stream every frame of this connection goes through.
  const raw = (ws as unknown as { _socket?: Socket })._socket;
  if (!raw) return;
  const send = ws.send.bind(ws) as (...args: unknown[]) => void;
  let corked = false;
  ws.send = ((...args: unknown[]) => {
    if (!corked && !raw.destroyed) {
      corked = true;
      raw.cork();
      // After this turn's microtasks, where the other subscriptions' frames of the same event are sent.
      process.nextTick(() => {
        corked = false;
        raw.uncork();
      });
    }
    send(...args);
  }) as WebSocket['send'];
}

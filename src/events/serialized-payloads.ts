/**
 * Lets graphql-ws send a `next` payload that was serialized beforehand, once for every subscriber
 * that gets it, instead of stringifying it again inside each subscription's frame.
 *
 * graphql-ws builds every frame as JSON.stringify({ id, type: 'next', payload }) (no replacer is
 * configured) and hands the string to the socket in the same synchronous step; the payload is the
 * frame's last key. Node 20 has no JSON.rawJSON, so a pre-built payload cannot be embedded in that
 * JSON.stringify. Instead a SerializedPayload stands in for it: stringified, it writes a
 * placeholder string (a random one per process, which no client knows or sends) and records its
 * JSON; the socket's send then finds the frame ending in that placeholder and puts the JSON in its
 * place. The frame is byte for byte what JSON.stringify of the whole message would have written.
 *
 * The hand-off needs no bookkeeping per socket: nothing runs between a frame's JSON.stringify and
 * its send, so the last payload stringified is the one of the frame being sent. A frame that is
 * not sent (graphql-ws skips sockets that are no longer open) leaves a value that the next
 * SerializedPayload's stringify replaces before any frame can end in the placeholder again.
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';

const PLACEHOLDER = `burrow-serialized-payload-${randomUUID()}`;
const PAYLOAD_KEY = ',"payload":';
/** How a frame whose payload is a SerializedPayload ends, after JSON.stringify. */
const PLACEHOLDER_TAIL = `${PAYLOAD_KEY}${JSON.stringify(PLACEHOLDER)}}`;

let lastStringified: string | null = null;

export class SerializedPayload {
  constructor(readonly json: string) {}

  /** Called by JSON.stringify of the frame, right before the frame is sent. */
  toJSON(): string {
    lastStringified = this.json;
    return PLACEHOLDER;
  }
}

/** Wraps the socket's send so that frames holding a SerializedPayload carry its JSON. */
export function spliceSerializedPayloads(ws: WebSocket): void {
  const send = ws.send.bind(ws) as (data: unknown, ...rest: unknown[]) => void;
  ws.send = ((data: unknown, ...rest: unknown[]) => {
    if (typeof data === 'string' && data.endsWith(PLACEHOLDER_TAIL)) {
      if (lastStringified === null) throw new Error('a frame holds a serialized payload that was never stringified');
      data = `${data.slice(0, -PLACEHOLDER_TAIL.length)}${PAYLOAD_KEY}${lastStringified}}`;
      lastStringified = null;
    }
    send(data, ...rest);
  }) as WebSocket['send'];
}

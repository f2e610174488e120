/**
 * Raw HTTP and graphql-ws helpers for tests that must control the exact bytes, headers and
 * messages (limits, origins, content types), where the SDK would hide them.
 */
import WebSocket from 'ws';
import { scaled } from './load.js';

export interface RawResponse {
  status: number;
  headers: Headers;
  body: { data?: unknown; errors?: { message: string; extensions?: { code?: string; limit?: string; max?: number } }[] } | null;
}

export async function postRaw(url: string, body: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await response.text();
  let parsed: RawResponse['body'] = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export const postJson = (url: string, payload: unknown, headers: Record<string, string> = {}) => postRaw(url, JSON.stringify(payload), headers);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export type Message = { type: string; id?: string; payload?: unknown };

/** One graphql-transport-ws socket, driven message by message. */
export class RawSocket {
  readonly messages: Message[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as Message);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
  }

  static async open(httpUrl: string, headers: Record<string, string> = {}): Promise<RawSocket> {
    const ws = new WebSocket(httpUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RawSocket(ws);
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  sendText(text: string) {
    this.ws.send(text);
  }

  send(message: Message) {
    this.sendText(JSON.stringify(message));
  }

  /** Sends connection_init and waits for the ack (or the close). */
  async init(token: string, extra: Record<string, unknown> = {}) {
    this.send({ type: 'connection_init', payload: { authorization: `Bearer ${token}`, ...extra } });
    return this.until((m) => m.type === 'connection_ack');
  }

  /** Waits for a message matching `match`, or for the close; returns the message or null when closed. */
  async until(match: (message: Message) => boolean, timeoutMs = 10_000): Promise<Message | null> {
    const deadline = Date.now() + scaled(timeoutMs);
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (this.closed) return null;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; messages: ${JSON.stringify(this.messages).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** Subscribes and waits for the operation's first answer: a next, an error, or the close. */
  async operation(id: string, payload: Record<string, unknown>) {
    this.send({ type: 'subscribe', id, payload });
    return this.until((m) => m.id === id && (m.type === 'next' || m.type === 'error'));
  }

  async waitClosed(timeoutMs = 10_000) {
    await this.until(() => false, timeoutMs).catch(() => null);
    return this.closed;
  }

  close() {
    this.ws.close();
  }
}

/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for Tiddle tests. Each
 * request's user message is the proposer input (JSON); a script per agent decides the answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProposerRequest {
  mode: 'pass' | 'synthesis';
  agentId: string;
  project?: string;
  date?: string;
  residue?: { reference: string; sessionId: string | null; createdAt: string; excerpts: { role: string; text: string }[] }[];
  cards: { agentId: string; project: string; cardId: string; title: string; body: string; evidence: string[] }[];
}

export type ScriptAnswer = { proposals: unknown[] } | { status: number; body?: string } | { raw: string };
export type Script = (request: ProposerRequest) => ScriptAnswer | Promise<ScriptAnswer>;

export interface ChatServer {
  url: string;
  /** Every proposer request received, in order. */
  requests: ProposerRequest[];
  /** Raw request bodies (model, response_format, authorization) for protocol checks. */
  raw: { body: Record<string, unknown>; authorization: string | null }[];
  script(agentId: string, script: Script): void;
  /** Added latency per answer in ms (real time, for overlapping concurrent passes). */
  delayMs: number;
  requestsFor(agentId: string, mode?: 'pass' | 'synthesis'): ProposerRequest[];
  close(): Promise<void>;
}

export async function startChatServer(): Promise<ChatServer> {
  const scripts = new Map<string, Script>();
  const requests: ProposerRequest[] = [];
  const raw: ChatServer['raw'] = [];
  const state = { delayMs: 0 };
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string; content: string }[] };
    raw.push({ body, authorization: req.headers.authorization ?? null });
    const input = JSON.parse(body.messages.find((m) => m.role === 'user')!.content) as ProposerRequest;
    requests.push(input);
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
    const script = scripts.get(input.agentId);
    const answer: ScriptAnswer = script ? await script(input) : { proposals: [] };
    if ('status' in answer) {
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? 'scripted failure');
      return;
    }
    const content = 'raw' in answer ? answer.raw : JSON.stringify({ proposals: answer.proposals });
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
  };
  const server: Server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    raw,
    script: (agentId, script) => void scripts.set(agentId, script),
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    requestsFor: (agentId, mode) => requests.filter((r) => r.agentId === agentId && (!mode || r.mode === mode)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

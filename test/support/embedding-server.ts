/**
 * A tiny OpenAI-compatible /v1/embeddings server on 127.0.0.1 with deterministic vectors: each
 * dimension is a topic, and words (with a few synonyms) add weight to their topic. The mode
 * switches between answering, failing with HTTP 500, never answering (slow), and answering a zero
 * vector for every input; `zeroFor` answers a zero vector only for inputs containing it, and
 * `rejectFor` answers HTTP 400 to any request with an input containing it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, startServer, type TestServer } from './harness.js';
import { providerTimeoutMs } from './load.js';

export const TOPICS = ['cat', 'dog', 'car', 'train', 'food'] as const;
const SYNONYMS: Record<string, Partial<Record<(typeof TOPICS)[number], number>>> = {
  cat: { cat: 1 },
  cats: { cat: 1 },
  kitten: { cat: 1 },
  feline: { cat: 1 },
  whiskers: { cat: 1 },
  dog: { dog: 1 },
  puppy: { dog: 1 },
  canine: { dog: 1 },
  barks: { dog: 1 },
  car: { car: 1 },
  automobile: { car: 1 },
  drive: { car: 1 },
  vehicle: { car: 0.6, train: 0.4 },
  train: { train: 1 },
  railway: { train: 1 },
  soup: { food: 1 },
  recipe: { food: 1 },
};

export function embedText(text: string): number[] {
  const vector: number[] = [...TOPICS.map(() => 0), 0.05];
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    const weights = SYNONYMS[word];
    if (!weights) continue;
    for (const [topic, weight] of Object.entries(weights)) vector[TOPICS.indexOf(topic as (typeof TOPICS)[number])] += weight!;
  }
  return vector;
}

export type EmbeddingMode = 'ok' | 'fail' | 'slow' | 'zero';

export interface EmbeddingServer {
  url: string;
  mode: EmbeddingMode;
  /** In mode 'ok', inputs containing this text get the zero vector (a broken model's answer). */
  zeroFor: string | null;
  /** In mode 'ok', a request with an input containing this text is refused with HTTP 400. */
  rejectFor: string | null;
  requests: { model: string; input: string[]; authorization: string | null }[];
  close(): Promise<void>;
}

export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const state: EmbeddingServer = { url: '', mode: 'ok', zeroFor: null, rejectFor: null, requests: [], close: async () => {} };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url !== '/v1/embeddings' || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as { model: string; input: string | string[] };
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      state.requests.push({ model: parsed.model, input, authorization: request.headers.authorization ?? null });
      const zero = (text: string) => state.mode === 'zero' || (state.zeroFor !== null && text.includes(state.zeroFor));
      const answer = () => {
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            object: 'list',
            model: parsed.model,
            data: input.map((text, index) => ({ object: 'embedding', index, embedding: zero(text) ? embedText('').map(() => 0) : embedText(text) })),
          }),
        );
      };
      if (state.rejectFor !== null && input.some((text) => text.includes(state.rejectFor!))) {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'input too long' } }));
      } else if (state.mode === 'fail') {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'provider down' } }));
      } else if (state.mode === 'slow') {
        // Never answers: the caller's deadline decides, whatever the machine's speed.
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/**
 * A test server whose embedding provider is `provider`. Always on PGlite, which always has
 * pgvector: the real servers of the test passes do not. The indexer runs only when a test runs a pass.
 */
export async function startEmbeddingTestServer(provider: EmbeddingServer, timeoutMs = providerTimeoutMs()): Promise<TestServer> {
  return startServer({
    database: await createTestDatabase({ embedded: true }),
    config: { embeddings: { url: provider.url, model: 'topic-embed', apiKey: 'test-key', timeoutMs, indexIntervalMs: 0 } },
  });
}

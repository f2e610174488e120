/**
 * A client for any OpenAI-compatible `/v1/embeddings` endpoint. Every failure (network, HTTP
 * status, timeout, malformed body) is an EmbeddingUnavailable: callers fall back, never fail.
 */
export interface EmbeddingsConfig {
  url: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
}

export class EmbeddingUnavailable extends Error {}

export class EmbeddingsClient {
  constructor(readonly config: EmbeddingsConfig) {}

  get endpoint(): string {
    const base = this.config.url.replace(/\/+$/, '');
    return base.endsWith('/embeddings') ? base : `${base}/embeddings`;
  }

  async embed(inputs: string[]): Promise<number[][]> {
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.config.model, input: inputs }),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      throw new EmbeddingUnavailable(
        name === 'TimeoutError' || name === 'AbortError'
          ? `the embedding provider did not answer within ${this.config.timeoutMs} ms`
          : `the embedding provider is unreachable (${(error as Error).message})`,
      );
    }
    let body: { data?: { embedding?: unknown; index?: number }[] };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new EmbeddingUnavailable(`the embedding provider answered HTTP ${response.status} without JSON`);
    }
    if (!response.ok) throw new EmbeddingUnavailable(`the embedding provider answered HTTP ${response.status}`);
    const data = Array.isArray(body.data) ? [...body.data] : null;
    if (!data || data.length !== inputs.length) throw new EmbeddingUnavailable('the embedding provider returned the wrong number of embeddings');
    data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    const vectors = data.map((item) => item.embedding);
    const dimensions = Array.isArray(vectors[0]) ? vectors[0].length : 0;
    for (const vector of vectors) {
      if (!Array.isArray(vector) || vector.length === 0 || vector.length !== dimensions || !vector.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingUnavailable('the embedding provider returned malformed vectors');
      }
    }
    return vectors as number[][];
  }
}

export const vectorLiteral = (vector: number[]) => `[${vector.join(',')}]`;

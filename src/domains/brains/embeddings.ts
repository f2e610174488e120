/**
 * A client for any OpenAI-compatible `/v1/embeddings` endpoint. Every failure (network, HTTP
 * status, timeout, malformed body) is an EmbeddingUnavailable: callers fall back, never fail.
 * A zero vector is well-formed but useless (its cosine distance to anything is NaN): callers
 * treat it as a fault of the provider for that one input (see zeroVectorFault).
 */
import type { Clock } from '../../lib/clock.js';

export interface EmbeddingsConfig {
  url: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
}

export class EmbeddingUnavailable extends Error {
  /**
   * The provider answered and refused this input (HTTP 400, 413 or 422: e.g. a text too long
   * for the model): the provider is up, the request is what failed. Every other failure
   * (unreachable, timeout, 5xx, 429, 401/403/404 configuration) means it is not usable now.
   */
  constructor(
    message: string,
    readonly rejected = false,
  ) {
    super(message);
  }
}

const INPUT_REJECTED_STATUSES = new Set([400, 413, 422]);

export class EmbeddingsClient {
  private lastCallFailed = false;
  private recovered: Date | null = null;

  constructor(
    readonly config: EmbeddingsConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * When this process last saw the provider answer again after it had failed: memories whose
   * embedding failed before then are worth retrying at once rather than after their backoff.
   */
  get recoveredAt(): Date | null {
    return this.recovered;
  }

  async embed(inputs: string[]): Promise<number[][]> {
    try {
      const vectors = await this.request(inputs);
      if (this.lastCallFailed) this.recovered = this.clock.now();
      this.lastCallFailed = false;
      return vectors;
    } catch (error) {
      if (error instanceof EmbeddingUnavailable) {
        // A refusal of one input is an answer: the provider is up.
        if (error.rejected && this.lastCallFailed) this.recovered = this.clock.now();
        this.lastCallFailed = !error.rejected;
      }
      throw error;
    }
  }

  get endpoint(): string {
    const base = this.config.url.replace(/\/+$/, '');
    return base.endsWith('/embeddings') ? base : `${base}/embeddings`;
  }

  private async request(inputs: string[]): Promise<number[][]> {
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
    const rejected = INPUT_REJECTED_STATUSES.has(response.status);
    let body: { data?: { embedding?: unknown; index?: number }[] };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new EmbeddingUnavailable(`the embedding provider answered HTTP ${response.status} without JSON`, rejected);
    }
    if (!response.ok) throw new EmbeddingUnavailable(`the embedding provider answered HTTP ${response.status}`, rejected);
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

/**
 * Why a vector cannot be used for cosine ranking, or null when it can: a vector whose stored
 * (single-precision) components are all zero has no direction.
 */
export function zeroVectorFault(vector: number[]): string | null {
  return vector.some((x) => Math.fround(x) !== 0) ? null : 'the embedding provider returned a zero vector';
}

export const vectorLiteral = (vector: number[]) => `[${vector.join(',')}]`;

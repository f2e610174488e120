/**
 * Proposers turn residue and current cards into proposals. They only propose: every proposal is
 * validated by the service before anything is written. The default proposes nothing; the
 * OpenAI-compatible one asks a chat-completions endpoint for structured JSON.
 */
import type { BurrowConfig } from '../../config.js';

export interface ResidueView {
  reference: string;
  sessionId: string | null;
  createdAt: string;
  excerpts: { role: string; text: string }[];
}

export interface CardView {
  agentId: string;
  project: string;
  cardId: string;
  title: string;
  body: string;
  evidence: string[];
  updatedAt: string;
}

export interface PassInput {
  mode: 'pass';
  agentId: string;
  project: string;
  residue: ResidueView[];
  cards: CardView[];
}

export interface SynthesisInput {
  mode: 'synthesis';
  agentId: string;
  date: string;
  cards: CardView[];
}

/** Raw proposals as the proposer returned them: validated field by field afterwards. */
export type RawProposal = Record<string, unknown>;

export interface Proposer {
  readonly kind: string;
  propose(input: PassInput | SynthesisInput): Promise<RawProposal[]>;
}

export class ProposerError extends Error {}

export const noopProposer: Proposer = {
  kind: 'noop',
  propose: async () => [],
};

const INSTRUCTIONS = `You maintain rolling continuity cards for an AI agent. Reply with one JSON object {"proposals": [...]}.
mode "pass": from the residue (recent terminal turns) and the scope's current cards propose:
  {"action":"create","title":..., "body":..., "evidence":[residue references], "metadata":{...}?}
  {"action":"update","card":{"agentId":...,"project":...,"cardId":...},"title":...,"body":..., "evidence":[residue references]}
  {"action":"preference_signal","statement":..., "evidence":[residue references]} for a behavioural correction by the user
  {"action":"noop","reason":...}
A topic must recur: a new or changed card cites at least two distinct residue references. Never invent references.
mode "synthesis": from cards of several scopes propose cross-scope cards:
  {"action":"create","title":...,"body":...,"sources":[{"agentId":...,"project":...,"cardId":...}, ...]} using cards of at least two scopes.
Propose nothing when nothing recurs.`;

export class OpenAiProposer implements Proposer {
  readonly kind = 'openai';
  constructor(private readonly options: { url: string; model: string; apiKey: string | null; timeoutMs: number }) {}

  async propose(input: PassInput | SynthesisInput): Promise<RawProposal[]> {
    const base = this.options.url.replace(/\/+$/, '');
    const endpoint = base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
    const controller = new AbortController();
    // A network timeout in real time: it bounds how long a pass may wait, it is not business time.
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: INSTRUCTIONS },
            { role: 'user', content: JSON.stringify(input) },
          ],
        }),
      });
    } catch (error) {
      throw new ProposerError(
        controller.signal.aborted
          ? `the proposer at ${endpoint} did not answer within ${this.options.timeoutMs} ms`
          : `the proposer at ${endpoint} could not be reached (${(error as Error).message})`,
      );
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new ProposerError(`the proposer at ${endpoint} answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    let content: unknown;
    try {
      const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
      content = body.choices?.[0]?.message?.content;
    } catch {
      throw new ProposerError('the proposer answered with a body that is not JSON');
    }
    if (typeof content !== 'string') throw new ProposerError('the proposer answer has no choices[0].message.content');
    let parsed: unknown;
    try {
      parsed = JSON.parse(stripFence(content));
    } catch {
      throw new ProposerError('the proposer message content is not JSON');
    }
    const proposals = Array.isArray(parsed) ? parsed : (parsed as { proposals?: unknown })?.proposals;
    if (!Array.isArray(proposals)) throw new ProposerError('the proposer JSON has no "proposals" array');
    return proposals.map((p) => (p && typeof p === 'object' && !Array.isArray(p) ? (p as RawProposal) : { action: 'invalid', value: p }));
  }
}

function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return fenced ? fenced[1] : text;
}

export function proposerFromConfig(config: BurrowConfig['tiddle']['proposer']): Proposer {
  return config.kind === 'openai' ? new OpenAiProposer(config) : noopProposer;
}

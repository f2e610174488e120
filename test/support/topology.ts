/**
 * The pieces of the topology tests (test/topology/): HAProxy started by the repository's own
 * script, its statistics, a writer that retries what a load balancer in front of a killed instance
 * answers, and a graphql-ws subscriber that resumes with `after:` wherever its connection lands.
 * They speak raw HTTP and graphql-transport-ws on purpose: a 502 from HAProxy is not GraphQL, and
 * the test must see every status and every reconnection to count them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freePort } from './free-port.js';
import { ROOT } from './shipped.js';

const SCRIPT = join(ROOT, 'scripts/topology/haproxy.sh');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function haproxyInstalled(): boolean {
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface HAProxy {
  /** http://127.0.0.1:PORT/graphql, the front. */
  url: string;
  /** Server name (burrow1, burrow2, …, in the order of the backends given) → its status (UP, DOWN, UP 1/3, …). */
  statuses(): Promise<Record<string, string>>;
  config: string;
  stop(): void;
}

/** scripts/topology/haproxy.sh start with these backends (host:port), in `dir`. */
export async function startHAProxy(dir: string, backends: string[]): Promise<HAProxy> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    BURROW_HAPROXY_DIR: dir,
    BURROW_HAPROXY_PORT: String(port),
    BURROW_HAPROXY_STATS_PORT: String(statsPort),
    BURROW_HAPROXY_BACKENDS: backends.join(' '),
  };
  const run = (action: string) => execFileSync('bash', [SCRIPT, action], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const url = run('start');
  return {
    url,
    config: run('config'),
    async statuses() {
      const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
      const [header, ...lines] = csv.trim().split('\n');
      const columns = header.replace(/^# /, '').split(',');
      const [proxy, server, status] = ['pxname', 'svname', 'status'].map((name) => columns.indexOf(name));
      const result: Record<string, string> = {};
      for (const fields of lines.map((line) => line.split(','))) if (fields[proxy] === 'burrow' && /^burrow\d+$/.test(fields[server])) result[fields[server]] = fields[status];
      return result;
    },
    stop: () => void run('stop'),
  };
}

/** The writes of the load, taken in turn: each names its write by a title the test finds it by. */
export const WRITES = {
  brainSave: {
    query: 'mutation Save($input: BrainSaveInput!) { brainSave(input: $input) { __typename ... on BrainSaveSuccess { memory { id: memoryId } } } }',
    input: (agentId: string, title: string) => ({ agentId, title, content: `content of ${title}` }),
  },
  appendConversationEntry: {
    query:
      'mutation Append($input: AppendConversationEntryInput!) { appendConversationEntry(input: $input) { __typename ... on AppendConversationEntrySuccess { entry { id: entryId } } } }',
    input: (agentId: string, title: string) => ({ agentId, role: 'user', payload: JSON.stringify({ title }) }),
  },
} as const;
export type WriteKind = keyof typeof WRITES;

export interface WriteFigures {
  /** Acknowledged writes: title → what was written, for which agent, and the id the server answered (memoryId, entryId). */
  acknowledged: Map<string, { kind: WriteKind; agentId: string; id: string }>;
  /** Retried attempts, by the phase they happened in, then by why (HTTP 502, HTTP 503 SHUTTING_DOWN, connection lost, …). */
  retriedBecause: Record<string, Record<string, number>>;
  /** Titles of the writes that needed a retry → the phase of their first retry (a duplicate can only be one of these). */
  retriedTitles: Map<string, string>;
  retries: number;
}

type Attempt = { ok: true; id: string } | { ok: false; reason: string; retryAfterMs: number | null };
type Answer = { data?: Record<string, { __typename: string; memory?: { id: string }; entry?: { id: string } }>; errors?: { extensions?: { code?: string } }[]; error?: string };

/** One write through the front; what a client may retry comes back as a reason, anything else throws. */
async function writeOnce(url: string, token: string, session: string, kind: WriteKind, agentId: string, title: string): Promise<Attempt> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      // The write's title is its idempotency key: every retry of it sends the same one (docs/idempotency.md).
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'burrow-session': session, 'idempotency-key': title },
      body: JSON.stringify({ query: WRITES[kind].query, variables: { input: WRITES[kind].input(agentId, title) } }),
      signal: AbortSignal.timeout(15_000),
    });
    text = await response.text();
  } catch (error) {
    // The connection broke with the request sent: it may have committed. The retry's key makes it answer that commit.
    const cause = (error as Error).cause as Error | undefined;
    return { ok: false, reason: `connection lost (${cause?.message ?? (error as Error).message})`, retryAfterMs: null };
  }
  const retryAfter = response.headers.get('retry-after');
  const retryAfterMs = retryAfter === null ? null : Number(retryAfter) * 1000;
  // HAProxy's own answers: 502 (the instance died with the request), 504.
  if (response.status === 502 || response.status === 504) return { ok: false, reason: `HTTP ${response.status} from HAProxy`, retryAfterMs };
  let body: Answer | null;
  try {
    body = JSON.parse(text) as Answer;
  } catch {
    // HAProxy's 503: no instance up.
    if (response.status === 503) return { ok: false, reason: 'HTTP 503 from HAProxy', retryAfterMs };
    throw new Error(`${kind} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  const code = body?.errors?.[0]?.extensions?.code ?? body?.error;
  if (response.status === 503 && (code === 'DATABASE_UNAVAILABLE' || code === 'SHUTTING_DOWN')) return { ok: false, reason: `HTTP 503 ${code}`, retryAfterMs };
  const result = body?.data?.[kind];
  const id = result?.memory?.id ?? result?.entry?.id;
  if (response.status === 200 && !body?.errors && result?.__typename.endsWith('Success') && id) return { ok: true, id };
  throw new Error(`${kind} answered ${response.status}: ${text.slice(0, 300)}`);
}

/**
 * `workers` loops of writes through `url`, brainSave and appendConversationEntry in turn (each worker
 * its own runtime session), until `stop()` says so, each write with its own title,
 * retried (same title, same idempotency key) after a 502/503/504 or a lost connection with a short backoff that honours
 * Retry-After, until acknowledged. `figures` fill in as it runs; `done` resolves when every loop
 * ended on an acknowledged write. `phase()` labels the retries.
 */
export function writeUnderLoad(options: { url: string; token: string; agentIds: string[]; workers: number; stop: () => boolean; phase: () => string }): {
  figures: WriteFigures;
  done: Promise<void>;
} {
  const figures: WriteFigures = { acknowledged: new Map(), retriedBecause: {}, retriedTitles: new Map(), retries: 0 };
  const loop = async (worker: number) => {
    for (let n = 0; !options.stop(); n++) {
      const agentId = options.agentIds[(worker + n) % options.agentIds.length];
      const title = `w${worker}-${n}`;
      const kind: WriteKind = n % 2 ? 'appendConversationEntry' : 'brainSave';
      for (let attempt = 1; ; attempt++) {
        const outcome = await writeOnce(options.url, options.token, `load-${worker}`, kind, agentId, title);
        if (outcome.ok) {
          figures.acknowledged.set(title, { kind, agentId, id: outcome.id });
          break;
        }
        const phase = options.phase();
        figures.retries++;
        const reasons = (figures.retriedBecause[phase] ??= {});
        reasons[outcome.reason] = (reasons[outcome.reason] ?? 0) + 1;
        if (!figures.retriedTitles.has(title)) figures.retriedTitles.set(title, phase);
        if (attempt >= 50) throw new Error(`${kind} ${title}: still failing after ${attempt} attempts (${outcome.reason})`);
        await sleep(Math.min(outcome.retryAfterMs ?? 50 * attempt, 500));
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.workers }, (_, worker) => loop(worker))).then(() => undefined);
  return { figures, done };
}

const EVENTS = 'subscription Events($agentId: String!, $after: Int) { agentEvents(agentId: $agentId, after: $after) { sequence } }';

/**
 * One agent's events over graphql-ws through the front. When its connection ends (the instance
 * died), it reconnects, through the front again, with `after:` the last sequence it received, as a
 * client that must miss nothing does. Records every sequence received, in order, and which
 * instance each connection reached (HAProxy's X-Burrow-Backend on the 101).
 */
export class ResumingSubscriber {
  readonly received: number[] = [];
  /** The backend of each connection, in order: the last one is where it is now. */
  readonly backends: string[] = [];
  /** Each connection's end: the instance it was on and the close code (1006: cut without a close frame). */
  readonly closes: { backend: string | undefined; code: number }[] = [];
  reconnections = 0;
  private socket: WebSocket | null = null;
  private stopped = false;
  private ready!: () => void;
  /** Resolves when the first subscription is acknowledged by the server. */
  readonly started = new Promise<void>((resolve) => (this.ready = resolve));

  constructor(
    readonly url: string,
    readonly token: string,
    readonly agentId: string,
  ) {
    this.connect();
  }

  get last(): number {
    return this.received.at(-1) ?? 0;
  }

  get backend(): string | undefined {
    return this.backends.at(-1);
  }

  private connect() {
    const ws = new WebSocket(this.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
    this.socket = ws;
    ws.on('upgrade', (response) => this.backends.push(String(response.headers['x-burrow-backend'] ?? '?')));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${this.token}` } })));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; payload?: { data?: { agentEvents: { sequence: number } } } };
      if (message.type === 'connection_ack') {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: EVENTS, variables: { agentId: this.agentId, after: this.last } } }));
        this.ready();
      } else if (message.type === 'next' && message.payload?.data) {
        this.received.push(message.payload.data.agentEvents.sequence);
      } else if (message.type === 'ping') {
        ws.send(JSON.stringify({ type: 'pong' }));
      } else if (message.type === 'error' || message.type === 'complete') {
        ws.close(4000, `unexpected ${message.type}: ${JSON.stringify(message.payload)}`);
      }
    });
    // A refused or broken connection ends in 'close' too; that is where it reconnects.
    ws.on('error', () => {});
    ws.on('close', (code) => {
      this.closes.push({ backend: this.backend, code });
      if (this.stopped) return;
      this.reconnections++;
      setTimeout(() => this.connect(), 100 + Math.random() * 100);
    });
  }

  /** Missed and duplicated, against the agent's whole log as PostgreSQL has it. */
  compare(logged: number[]): { missed: number; duplicated: number; inOrder: boolean } {
    const seen = new Set(this.received);
    return {
      missed: logged.filter((sequence) => !seen.has(sequence)).length,
      duplicated: this.received.length - seen.size,
      inOrder: this.received.every((sequence, i) => i === 0 || sequence > this.received[i - 1]),
    };
  }

  close() {
    this.stopped = true;
    this.socket?.close(1000);
  }
}

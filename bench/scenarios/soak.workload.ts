/**
 * The soak's mixed workload, paced at moderate rates (the aim is a sustained realistic load, not
 * saturation): every request is one GraphQL POST whose latency and outcome are recorded by
 * the minute it started in. A request fails when it has no 200 answer, carries errors, or lacks
 * the success it asked for; its error code (DATABASE_UNAVAILABLE, a transport error …) is kept.
 */
import { percentile } from '../config.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Failure {
  kind: string;
  code: string;
  /** When it started and ended, in ms since the soak began. */
  start: number;
  end: number;
}

/** Latencies and failures by minute (bucketMs) of the soak. */
export class Recorder {
  readonly started = performance.now();
  readonly latencies: number[][] = [];
  readonly failures: Failure[] = [];
  constructor(readonly bucketMs: number) {}
  now() {
    return performance.now() - this.started;
  }
  add(kind: string, start: number, code: string | null) {
    const end = this.now();
    if (code) this.failures.push({ kind, code, start, end });
    else (this.latencies[Math.floor(start / this.bucketMs)] ??= []).push(end - start);
  }
  minute(index: number, window: { from: number; to: number } | null) {
    const latencies = this.latencies[index] ?? [];
    const failures = this.failures.filter((f) => Math.floor(f.start / this.bucketMs) === index);
    const during = failures.filter((f) => inWindow(f, window)).length;
    return {
      requests: latencies.length + failures.length,
      errors: failures.length - during,
      during,
      p50: latencies.length ? percentile(latencies, 50) : NaN,
      p99: latencies.length ? percentile(latencies, 99) : NaN,
    };
  }
}

/** Whether a failed request overlapped the restart window. */
export const inWindow = (f: Failure, window: { from: number; to: number } | null) => window !== null && f.start <= window.to && f.end >= window.from;

type Data = Record<string, unknown>;

/** A GraphQL POST and its outcome, recorded; the data when it succeeded and `ok(data)` holds, else null. */
export async function call(
  recorder: Recorder,
  url: string,
  token: string,
  kind: string,
  query: string,
  variables: Record<string, unknown>,
  ok: (data: Data) => boolean = () => true,
): Promise<Data | null> {
  const start = recorder.now();
  const answer = await send(url, token, query, variables);
  let code: string | null = answer.code;
  if (!code && !ok(answer.data!)) code = `unexpected ${JSON.stringify(answer.data).slice(0, 200)}`;
  recorder.add(kind, start, code);
  return code ? null : answer.data;
}

/** The POST itself: its data, or the error's code (the first GraphQL error's, the HTTP status, or the transport's). */
export async function send(url: string, token: string, query: string, variables: Record<string, unknown>): Promise<{ data: Data | null; code: string | null }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: { data?: Data; errors?: { extensions?: { code?: string } }[]; error?: string } | null = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the status says it.
    }
    if (response.status !== 200 || !body?.data || body.errors?.length) {
      return { data: null, code: body?.errors?.[0]?.extensions?.code ?? body?.error ?? `HTTP ${response.status}` };
    }
    return { data: body.data, code: null };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { data: null, code: cause?.code ?? (error as Error).name ?? String(error) };
  }
}

/**
 * `concurrency` loops sharing one schedule of `rate` steps per second until `done()`: a step waits
 * for its slot, so the rate holds while the server keeps up, and at most `concurrency` are in
 * flight when it does not. Slots missed meanwhile are skipped, not made up in a burst (a 30-minute
 * run on the shared machine saw its bench stall for a minute and then send 2.7 times the rate).
 */
export function paced(rate: number, concurrency: number, done: () => boolean, step: (i: number) => Promise<void>): Promise<void[]> {
  const interval = 1000 / rate;
  const start = performance.now();
  let next = 0;
  const loop = async () => {
    while (!done()) {
      const i = Math.max(next, Math.floor((performance.now() - start) / interval));
      next = i + 1;
      const wait = start + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      if (done()) return;
      await step(i);
    }
  };
  return Promise.all(Array.from({ length: concurrency }, loop));
}

export const Q = {
  read: 'query SoakRead($agentId: String!) { agent(agentId: $agentId) { agentId name profile { kind content revision } } }',
  search: 'query SoakSearch($agentId: String!, $query: String!) { brainSearch(agentId: $agentId, query: $query, first: 10) { hits { score memory { memoryId } } } }',
  save: 'mutation SoakSave($input: BrainSaveInput!) { brainSave(input: $input) { __typename ... on BrainSaveSuccess { memory { memoryId } } } }',
  update:
    'mutation SoakUpdate($input: UpdateProfileDocumentInput!) { updateProfileDocument(input: $input) { __typename ... on UpdateProfileDocumentSuccess { document { revision } } } }',
  revision: 'query SoakRevision($agentId: String!) { profileDocument(agentId: $agentId, kind: SOUL) { revision } }',
  sequence: 'query SoakSequence($agentId: String!) { agent(agentId: $agentId) { lastEventSequence } }',
  createToken: 'mutation SoakToken($input: CreateApiTokenInput!) { createApiToken(input: $input) { __typename ... on CreateApiTokenSuccess { secret token { tokenId } } } }',
  revoke: 'mutation SoakRevoke($tokenId: String!) { revokeApiToken(tokenId: $tokenId) { __typename } }',
  viewer: 'query SoakViewer { viewer { principal agentId } }',
};

/** The soak's counts beyond requests: what was acknowledged and must be there at the end. */
export interface Ledger {
  saved: { agentId: string; memoryId: string; content: string }[];
  revocations: number;
  revokedStillWorked: number;
  updates: number;
}

/** The workload's loops, all running until `done()`. */
export function workload(
  recorder: Recorder,
  target: { url: string; token: string },
  agents: { read: string[]; write: string[]; live: string[] },
  rates: { reads: number; searches: number; saves: number; updateEveryMs: number; revokeEveryMs: number },
  ledger: Ledger,
  done: () => boolean,
) {
  const { url, token } = target;
  const at = <T>(list: T[], i: number) => list[i % list.length];
  const reads = paced(rates.reads, 4, done, async (i) => {
    await call(recorder, url, token, 'read', Q.read, { agentId: at(agents.read, i * 7) }, (d) => (d.agent as { agentId?: string } | null)?.agentId !== undefined);
  });
  const searches = paced(rates.searches, 2, done, async (i) => {
    await call(recorder, url, token, 'search', Q.search, { agentId: at(agents.write, i), query: at(['soak kestrel', 'tea', 'deploys soak', 'garden'], i) });
  });
  const saves = paced(rates.saves, 4, done, async (i) => {
    const agentId = at(agents.write, i);
    const content = `Soak note ${i} about ${at(['tea', 'kestrel', 'deploys', 'the garden'], i)}, written at ${new Date().toISOString()}.`;
    const data = await call(recorder, url, token, 'save', Q.save, { input: { agentId, title: `Soak ${i}`, content, sourceRefs: [`soak:${i}`] } }, (d) => {
      return (d.brainSave as { __typename: string }).__typename === 'BrainSaveSuccess';
    });
    if (data) ledger.saved.push({ agentId, memoryId: (data.brainSave as { memory: { memoryId: string } }).memory.memoryId, content });
  });
  // One updater per live agent, never two at once: each update is one event every subscriber of that agent must get.
  const updates = agents.live.map(async (agentId) => {
    let revision: number | null = 1;
    await paced(1000 / rates.updateEveryMs, 1, done, async (i) => {
      if (revision === null) {
        const read = await call(recorder, url, token, 'update', Q.revision, { agentId });
        if (!read) return;
        revision = (read.profileDocument as { revision: number }).revision;
      }
      const input = { agentId, kind: 'SOUL', content: `Soul of ${agentId}, update ${i}`, expectedRevision: revision };
      const data = await call(recorder, url, token, 'update', Q.update, { input }, (d) => {
        return (d.updateProfileDocument as { __typename: string }).__typename === 'UpdateProfileDocumentSuccess';
      });
      // Unknown outcome (the connection went mid-commit) or a conflict: read the revision again first.
      revision = data ? (data.updateProfileDocument as { document: { revision: number } }).document.revision : null;
      if (data) ledger.updates++;
    });
  });
  // Revocations: make an agent token, use it, revoke it, and check it is refused afterwards.
  const revocations = paced(1000 / rates.revokeEveryMs, 1, done, async (i) => {
    const agentId = at(agents.read, i);
    const made = await call(recorder, url, token, 'token', Q.createToken, { input: { kind: 'AGENT', agentId, name: `soak-${i}` } }, (d) => {
      return (d.createApiToken as { __typename: string }).__typename === 'CreateApiTokenSuccess';
    });
    if (!made) return;
    const { secret, token: created } = made.createApiToken as { secret: string; token: { tokenId: string } };
    await call(recorder, url, secret, 'token', Q.viewer, {}, (d) => (d.viewer as { agentId: string }).agentId === agentId);
    const revoked = await call(recorder, url, token, 'token', Q.revoke, { tokenId: created.tokenId }, (d) => {
      return (d.revokeApiToken as { __typename: string }).__typename === 'RevokeApiTokenSuccess';
    });
    if (!revoked) return;
    ledger.revocations++;
    // Refused is the success here; a 503 (the database away) is a failed request; an answer is a revoked token that still works.
    const start = recorder.now();
    const after = await send(url, secret, Q.viewer, {});
    if (after.data) ledger.revokedStillWorked++;
    recorder.add('token', start, after.data ? 'REVOKED_TOKEN_ACCEPTED' : after.code === 'UNAUTHENTICATED' || after.code === 'HTTP 401' ? null : after.code);
  });
  return Promise.all([reads, searches, saves, ...updates, revocations]);
}

/**
 * Three Burrow instances (the built server, external lifecycle) on one PostgreSQL behind HAProxy
 * (scripts/topology/haproxy.sh: /health/ready as the check, round robin, WebSockets tunnelled).
 * Under a steady write load through HAProxy (brainSave and appendConversationEntry in turn) and
 * with graphql-ws subscribers of three agents spread over the instances, one instance is killed
 * with SIGKILL (its whole process group, as a crash or an OOM kill does), then another is stopped
 * with SIGTERM (a rolling restart). Asserted: every acknowledged write is in the database (the
 * writers retry 502/503 and lost connections) and a write stored twice is one that was retried;
 * HAProxy marks both down; the subscribers of each reconnect through HAProxy with `after:` (closed
 * with 1006 by the crash, 1001 by the stop) and their sequences equal the agent's log exactly
 * (nothing missed, nothing twice, in order); the others never reconnect. Printed: the figures of
 * docs/scaling.md's "Behind HAProxy".
 *
 * Opt-in (it needs Debian's haproxy and takes about a minute): BURROW_TEST_TOPOLOGY=1. The
 * database: a fresh one on BURROW_TEST_DATABASE_URL's server (with BURROW_TEST_REQUIRED_MAJOR),
 * else on the machine's PostgreSQL 15 at 127.0.0.1:5432 (required major 15); dropped after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, REAL_DATABASE_URL, scaled, TEST_REQUIRED_MAJOR, waitUntil, type TestDatabase } from '../support/harness.js';
import { createShippedToken, postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';
import { haproxyInstalled, ResumingSubscriber, sleep, startHAProxy, writeUnderLoad, type HAProxy, type WriteKind } from '../support/topology.js';

const SKIP =
  process.env.BURROW_TEST_TOPOLOGY !== '1'
    ? 'the topology tests run only with BURROW_TEST_TOPOLOGY=1'
    : !haproxyInstalled()
      ? 'haproxy is not installed (apt-get install -y haproxy)'
      : null;
if (SKIP) console.log(`test/topology/haproxy.test.ts skipped: ${SKIP}`);

const SERVER = REAL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MAJOR = REAL_DATABASE_URL ? TEST_REQUIRED_MAJOR : 15;
const AGENTS = ['hx-a', 'hx-b', 'hx-c'];
const SUBSCRIBERS_PER_AGENT = 3;
const WRITERS = 6;
/** How long each phase (steady, after the kill, after the stop) writes. */
const PHASE_MS = 6_000;

describe.skipIf(SKIP)(`three instances behind HAProxy, one killed and one stopped under load${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let database: TestDatabase;
  let instances: ShippedServer[] = [];
  let haproxy: HAProxy | null = null;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bw-haproxy-'));
    database = await createTestDatabase({ server: { url: SERVER, requiredMajor: MAJOR } });
    const env = { BURROW_POSTGRES_REQUIRED_MAJOR: String(MAJOR), BURROW_RATE_LIMIT_PER_SECOND: '0' };
    // The first applies the migrations and makes the operator token; the others share both.
    const first = await startShipped({ lifecycle: 'external', database, env });
    instances = [first, ...(await Promise.all([1, 2].map(() => startShipped({ lifecycle: 'external', database, env, operatorToken: first.operatorToken }))))];
    haproxy = await startHAProxy(
      dir,
      instances.map((instance) => `127.0.0.1:${instance.port}`),
    );
    await waitUntil(async () => Object.values(await haproxy!.statuses()).filter((status) => status === 'UP').length === 3, 'HAProxy sees three instances up', 20_000, 100);
  });

  afterAll(async () => {
    haproxy?.stop();
    const stopped = await Promise.all(instances.map((instance) => instance.stop()));
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
    // The survivors shut down cleanly; the killed one died of the kill.
    expect(stopped.map((result) => result.signal ?? result.code)).toEqual([0, 'SIGKILL', 0]);
  });

  it('loses no acknowledged write; subscribers of a killed or stopped instance resume with after: and miss nothing', async () => {
    const front = { url: haproxy!.url };
    const operatorToken = instances[0].operatorToken;
    for (const agentId of AGENTS) await createShippedToken({ url: front.url, operatorToken }, { name: `agent-${agentId}`, agentId });

    // Opened one after the other before any request: round robin spreads them over the three.
    const subscribers: ResumingSubscriber[] = [];
    for (const agentId of AGENTS) {
      for (let i = 0; i < SUBSCRIBERS_PER_AGENT; i++) {
        const subscriber = new ResumingSubscriber(front.url, operatorToken, agentId);
        subscribers.push(subscriber);
        await Promise.race([subscriber.started, sleep(scaled(20_000)).then(() => Promise.reject(new Error(`subscriber ${subscribers.length} got no connection_ack in 20 s`)))]);
      }
    }
    const indexOf = (subscriber: ResumingSubscriber) => subscribers.indexOf(subscriber);
    const on = (name: string) => subscribers.filter((subscriber) => subscriber.backend === name);
    const reconnectedSince = (before: number[]) => subscribers.filter((subscriber, i) => subscriber.reconnections > before[i]);
    const killed = on('burrow2');
    expect(killed.length).toBeGreaterThan(0);

    let phase = 'steady';
    let stopWriting = false;
    const load = writeUnderLoad({ url: front.url, token: operatorToken, agentIds: AGENTS, workers: WRITERS, stop: () => stopWriting, phase: () => phase });
    const downAfter = async (name: string, since: number): Promise<number> => {
      await waitUntil(async () => (await haproxy!.statuses())[name] === 'DOWN', `HAProxy marks ${name} down`, 15_000, 50);
      return Number(((performance.now() - since) / 1000).toFixed(2));
    };
    await sleep(PHASE_MS);

    // 1. A crash: SIGKILL to burrow2's process group (npm and node).
    phase = 'kill -9';
    const beforeKill = subscribers.map((subscriber) => subscriber.reconnections);
    const loadAtKill = loadavg()[0];
    const killedAt = performance.now();
    process.kill(-instances[1].child.pid!, 'SIGKILL');
    const killDownS = await downAfter('burrow2', killedAt);
    await sleep(Math.max(0, PHASE_MS - (performance.now() - killedAt)));

    // 2. A planned stop: SIGTERM to burrow3 (a rolling restart): it drains, closes its WebSockets with 1001 and exits 0.
    phase = 'SIGTERM';
    const stopped = on('burrow3');
    const beforeStop = subscribers.map((subscriber) => subscriber.reconnections);
    const inKill = subscribers.filter((subscriber, i) => beforeStop[i] > beforeKill[i]);
    const loadAtStop = loadavg()[0];
    const stoppedAt = performance.now();
    const exit = instances[2].stop('SIGTERM');
    const stopDownS = await downAfter('burrow3', stoppedAt);
    expect((await exit).code).toBe(0);
    await sleep(Math.max(0, PHASE_MS - (performance.now() - stoppedAt)));
    stopWriting = true;
    await load.done;
    const writes = load.figures;

    // Every subscriber catches up with its agent's whole log.
    const db = new pg.Client({ connectionString: database.url! });
    await db.connect();
    try {
      const logs = new Map<string, number[]>();
      for (const agentId of AGENTS) {
        const { rows } = await db.query<{ sequence: string }>('SELECT sequence FROM agent_events WHERE agent_id = $1 ORDER BY sequence', [agentId]);
        logs.set(
          agentId,
          rows.map((row) => Number(row.sequence)),
        );
      }
      await waitUntil(
        () => subscribers.every((subscriber) => subscriber.last === logs.get(subscriber.agentId)!.at(-1)),
        'every subscriber has its agent’s newest event',
        20_000,
        50,
      );
      for (const subscriber of subscribers) subscriber.close();

      // Every write the agents have, as the load generator names them: kind, agent, id, title.
      const { rows: stored } = await db.query<{ kind: WriteKind; agent_id: string; id: string; title: string }>(
        `SELECT 'brainSave' AS kind, agent_id, id, title FROM brain_memories WHERE agent_id = ANY($1)
         UNION ALL SELECT 'appendConversationEntry', agent_id, id, payload->>'title' FROM conversation_entries WHERE agent_id = ANY($1)`,
        [AGENTS],
      );
      const storedKeys = new Set(stored.map((row) => `${row.kind} ${row.agent_id} ${row.id} ${row.title}`));
      const acknowledged = [...writes.acknowledged.entries()];
      // Every acknowledged write read back: the id the server answered, of that kind and agent, with its title.
      const lostWrites = acknowledged.filter(([title, write]) => !storedKeys.has(`${write.kind} ${write.agentId} ${write.id} ${title}`));
      const copies = new Map<string, number>();
      for (const row of stored) copies.set(`${row.kind} ${row.title}`, (copies.get(`${row.kind} ${row.title}`) ?? 0) + 1);
      const duplicatedBy: Record<string, number> = {};
      for (const [key, n] of copies) {
        const phase = n > 1 ? (writes.retriedTitles.get(key.split(' ')[1]) ?? 'never retried') : null;
        if (phase) duplicatedBy[phase] = (duplicatedBy[phase] ?? 0) + n - 1;
      }
      const lost = lostWrites.length;
      const comparisons = subscribers.map((subscriber) => subscriber.compare(logs.get(subscriber.agentId)!));
      const inStop = reconnectedSince(beforeStop);
      const figures = {
        loadAverage: { atKill: Number(loadAtKill.toFixed(2)), atStop: Number(loadAtStop.toFixed(2)), cores: cpus().length },
        writesAcknowledged: acknowledged.length,
        writesAcknowledgedByKind: Object.fromEntries(
          (['brainSave', 'appendConversationEntry'] as const).map((kind) => [kind, acknowledged.filter(([, write]) => write.kind === kind).length]),
        ),
        writesLost: lost,
        writesDuplicated: duplicatedBy,
        retries: writes.retries,
        retriedBecause: writes.retriedBecause,
        secondsUntilMarkedDown: { 'kill -9': killDownS, SIGTERM: stopDownS },
        subscribers: subscribers.length,
        killedInstanceSubscribersReconnected: `${inKill.length} of ${killed.length}`,
        stoppedInstanceSubscribersReconnected: `${inStop.length} of ${stopped.length}`,
        eventsDelivered: subscribers.reduce((sum, subscriber) => sum + subscriber.received.length, 0),
        eventsMissed: comparisons.reduce((sum, c) => sum + c.missed, 0),
        eventsDuplicated: comparisons.reduce((sum, c) => sum + c.duplicated, 0),
      };
      console.log(`HAProxy topology figures: ${JSON.stringify(figures, null, 2)}`);

      expect(lostWrites).toEqual([]);
      // Nothing but the load's writes (a stored title the load never acknowledged would be a write it gave up on).
      expect(stored.every((row) => writes.acknowledged.get(row.title)?.kind === row.kind)).toBe(true);
      expect(acknowledged.length).toBeGreaterThan(0);
      // Retries carry the write's idempotency key: a write whose answer was lost is answered, not written again.
      expect(duplicatedBy).toEqual({});
      expect(comparisons).toEqual(subscribers.map(() => ({ missed: 0, duplicated: 0, inOrder: true })));
      // Exactly the killed instance's subscribers reconnected after the kill, none to it; exactly the
      // stopped instance's after the stop, told so with 1001 (going away), all to burrow1.
      expect(inKill.map(indexOf)).toEqual(killed.map(indexOf));
      expect(inStop.map(indexOf)).toEqual(stopped.map(indexOf));
      expect(killed.map((subscriber) => subscriber.closes.find((close) => close.backend === 'burrow2')?.code)).toEqual(killed.map(() => 1006));
      expect(stopped.map((subscriber) => subscriber.closes.find((close) => close.backend === 'burrow3')?.code)).toEqual(stopped.map(() => 1001));
      expect(subscribers.map((subscriber) => subscriber.backend)).toEqual(subscribers.map(() => 'burrow1'));
      // HAProxy counts both out; the survivor answers through it.
      expect(await haproxy!.statuses()).toEqual({ burrow1: 'UP', burrow2: 'DOWN', burrow3: 'DOWN' });
      const answer = await postGraphQL(front, operatorToken, { query: '{ agent(agentId: "hx-a") { lastEventSequence } }' });
      expect(answer.body.data.agent.lastEventSequence).toBe(logs.get('hx-a')!.at(-1));
    } finally {
      for (const subscriber of subscribers) subscriber.close();
      await db.end();
    }
  });
});

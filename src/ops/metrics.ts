/**
 * Prometheus metrics (prom-client), one registry per app so several apps in one process (tests)
 * never share series. Served at /metrics: on the main port to an operator token, or without a
 * token on BURROW_METRICS_PORT (a listener meant for the internal network only).
 */
import client from 'prom-client';
import type pg from 'pg';
import type { RoutedReads } from '../db/database.js';
import type { EventHub } from '../events/hub.js';
import { backgroundJobStats } from '../lib/interval.js';

export interface MetricsSources {
  pool: pg.Pool;
  hub: EventHub;
  /** Read replicas, when configured (db/replicas.ts). */
  reads?: RoutedReads;
  /** brainSave's statements (domains/brains/brains.save-batch.ts): what they wrote so far, what waits and runs now. */
  brainSaves?: { readonly written: { readonly statements: number; readonly saves: number }; readonly queuedCount: number; readonly runningCount: number };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(sources: MetricsSources) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'burrow_process_' });

  // `operation` is the root field (schema-bounded), never the client-chosen operation name.
  const requests = new client.Counter({
    name: 'burrow_graphql_operations_total',
    help: 'GraphQL operations by root field, operation type and outcome code (OK or the first error code)',
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'burrow_graphql_operation_duration_seconds',
    help: 'GraphQL operation latency (queries and mutations: until the result; subscriptions: until the stream is set up)',
    labelNames: ['operation', 'type'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const httpPaths = new client.Counter({
    name: 'burrow_graphql_http_requests_total',
    help: "HTTP requests to /graphql by the path that answered them: direct (one plain JSON operation, executed without Yoga's HTTP layer) or yoga (everything else)",
    labelNames: ['path'] as const,
    registers: [registry],
  });
  const httpPath = { direct: httpPaths.labels({ path: 'direct' }), yoga: httpPaths.labels({ path: 'yoga' }) };
  const { pool, hub } = sources;
  new client.Gauge({
    name: 'burrow_db_pool_connections',
    help: 'Database pool connections by state (in_use, idle) and requests waiting for one (waiting)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  if (sources.reads) replicaMetrics(registry, sources.reads);
  new client.Gauge({
    name: 'burrow_subscriptions_open',
    help: 'Event subscriptions open on this instance (all transports)',
    registers: [registry],
    collect() {
      this.set(hub.openSubscriptions);
    },
  });
  // The hub's reads of the event log (one per batch of announced events, re-checks included): with
  // many subscribers on one agent it stays one per event, which the bench's fan-out reads here.
  countsFrom(
    registry,
    'burrow_events_log_reads_total',
    "Reads of the event log by this instance's event hub (one per batch of announced events, re-checks included)",
    () => hub.channelReads,
  );
  new client.Gauge({
    name: 'burrow_events_listen_up',
    help: '1 while this instance LISTENs for events, 0 while it reconnects',
    registers: [registry],
    collect() {
      this.set(hub.listening ? 1 : 0);
    },
  });
  const deliveryLag = new client.Histogram({
    name: 'burrow_event_delivery_lag_seconds',
    help: 'From the NOTIFY reaching this instance to the event being handed to a subscriber',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const listenReconnects = new client.Counter({
    name: 'burrow_events_listen_reconnects_total',
    help: 'Times the LISTEN connection was lost and re-established',
    registers: [registry],
  });
  const { brainSaves } = sources;
  if (brainSaves) {
    // Their ratio is the mean batch: saves that arrive together share one statement.
    countsFrom(
      registry,
      'burrow_brain_save_statements_total',
      'Statements that wrote memories of brainSave: one per save alone, one per batch of saves that arrived together',
      () => brainSaves.written.statements,
    );
    countsFrom(registry, 'burrow_brain_save_memories_total', 'Memories those statements wrote', () => brainSaves.written.saves);
    new client.Gauge({
      name: 'burrow_brain_save_queued',
      help: 'Saves of brainSave waiting for a statement (they go together in the next one)',
      registers: [registry],
      collect() {
        this.set(brainSaves.queuedCount);
      },
    });
    new client.Gauge({
      name: 'burrow_brain_save_statements_running',
      help: "brainSave's statements running now: one, or two once a full batch waits",
      registers: [registry],
      collect() {
        this.set(brainSaves.runningCount);
      },
    });
  }
  new client.Counter({
    name: 'burrow_background_job_runs_total',
    help: 'Background job runs by job (process-wide)',
    labelNames: ['job'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [job, stats] of backgroundJobStats) this.inc({ job }, stats.runs);
    },
  });
  new client.Counter({
    name: 'burrow_background_job_failures_total',
    help: 'Background job runs that failed, by job (process-wide)',
    labelNames: ['job'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [job, stats] of backgroundJobStats) this.inc({ job }, stats.failures);
    },
  });

  hub.observer = {
    delivered: (lagSeconds) => deliveryLag.observe(lagSeconds),
    reconnected: () => listenReconnects.inc(),
  };

  // Each operation's counter and histogram children, found by one Map lookup: given a label
  // object, prom-client sorts and joins its keys on every call. The combinations are bounded by
  // the schema's root fields, the operation types and the error codes.
  const series = new Map<string, { count: ReturnType<typeof requests.labels>; duration: ReturnType<typeof duration.labels> }>();
  const operationSeries = (operation: string, type: string, outcome: string) => {
    const key = `${operation}\u0000${type}\u0000${outcome}`;
    let found = series.get(key);
    if (!found) series.set(key, (found = { count: requests.labels({ operation, type, outcome }), duration: duration.labels({ operation, type }) }));
    return found;
  };

  return {
    registry,
    recordOperation(operation: string, type: string, outcome: string, seconds: number) {
      const found = operationSeries(operation, type, outcome);
      found.count.inc();
      found.duration.observe(seconds);
    },
    recordHttpPath(path: 'direct' | 'yoga') {
      httpPath[path].inc();
    },
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** Each replica's state at its last probe, by `replica` (host:port/database, never a password). */
function replicaMetrics(registry: client.Registry, reads: RoutedReads) {
  const gauge = (name: string, help: string, value: (status: ReturnType<RoutedReads['status']>[number]) => number) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['replica'] as const,
      registers: [registry],
      collect() {
        for (const status of reads.status()) this.set({ replica: status.name }, value(status));
      },
    });
  gauge('burrow_db_replica_up', 'A read replica answers and is in recovery (1), or is skipped as down (0)', (s) => (s.up ? 1 : 0));
  gauge('burrow_db_replica_lag_bytes', 'WAL bytes the primary has that the replica has not replayed (at the last probe)', (s) => s.lagBytes);
  gauge('burrow_db_replica_lag_seconds', 'Seconds since the replica replayed its last commit, while it is behind the primary (0 when caught up)', (s) => s.lagSeconds);
  gauge('burrow_db_replica_reads', 'Reads served by the replica since start', (s) => s.reads);
  new client.Gauge({
    name: 'burrow_db_replica_primary_fallback_reads',
    help: 'Reads that may lag, served by the primary because no replica could (none healthy, or not caught up with the reading token within BURROW_POSTGRES_REPLICA_WAIT_MS)',
    registers: [registry],
    collect() {
      this.set(reads.primaryFallbacks());
    },
  });
}

/** A counter that follows a running total kept elsewhere, read at each scrape. */
function countsFrom(registry: client.Registry, name: string, help: string, total: () => number) {
  let seen = 0;
  new client.Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = total();
      if (now > seen) this.inc(now - seen);
      seen = now;
    },
  });
}

/**
 * operatorEvents: the event log of every agent (or the chosen ones) in one commit-safe order,
 * resumable with the cursor of the last event seen (operator-cursor.ts). One stream reads the
 * log after its position whenever any agent's event is announced; a read every BACKSTOP_MS
 * also picks up events that were held back because an older transaction was still running
 * when they were announced (that transaction may write no event, so nothing else would wake
 * the stream). Dashboards are few, so each stream reads for itself.
 */
import { Repeater } from 'graphql-yoga';
import type { Database } from '../db/database.js';
import { describeError, isConnectionLoss } from '../lib/connection-errors.js';
import type { Logger } from '../lib/logger.js';
import { readOperatorEvents, startingSnapshot, type AgentEventRow, type EventStream } from './events.service.js';
import { backoffDelay } from '../lib/backoff.js';
import type { EventHub } from './hub.js';
import type { OperatorPosition } from './operator-cursor.js';

const PAGE = 200;
const BACKSTOP_MS = 1000;

export interface OperatorStreamQuery {
  after: OperatorPosition | null;
  agentIds: readonly string[] | null;
  streams: readonly EventStream[] | null;
}

export function operatorStream(database: Database, hub: EventHub, logger: Logger, query: OperatorStreamQuery): AsyncIterable<AgentEventRow> {
  const { db } = database;
  return new Repeater<AgentEventRow>(async (push, stop) => {
    let pending = true;
    let wake: (() => void) | null = null;
    const wakeUp = () => {
      pending = true;
      const resolve = wake;
      wake = null;
      resolve?.();
    };
    const unsubscribe = hub.onAnyEvent(wakeUp);
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      wakeUp();
    });
    let position = query.after;
    // Without a cursor: everything not yet committed in a snapshot taken now, for the stream's whole life.
    let notIn: string | null = null;
    let failures = 0;
    try {
      while (!stopped) {
        try {
          pending = false;
          if (!query.after && notIn === null) notIn = await startingSnapshot(db);
          const rows = await readOperatorEvents(db, { after: position, notIn, agentIds: query.agentIds, streams: query.streams, limit: PAGE });
          failures = 0;
          for (const row of rows) {
            if (stopped) break;
            await push(row);
            position = { txId: row.txId, agentId: row.agentId, sequence: row.sequence };
          }
          if (rows.length === PAGE || stopped) continue;
          if (!pending) await wait(BACKSTOP_MS, (resolve) => (wake = resolve));
        } catch (error) {
          if (!isConnectionLoss(error) || stopped) throw error;
          await wait(backoffDelay(failures++), (resolve) => (wake = resolve));
        }
      }
      stop();
    } catch (error) {
      logger.warn('operator event stream ended by an error', describeError(error));
      stop(error);
    } finally {
      unsubscribe();
    }
  });
}

/** Resolves after `ms`, or earlier when the registered wake-up is called. */
function wait(ms: number, register: (resolve: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    register(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

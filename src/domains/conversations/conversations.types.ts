/**
 * The shapes the conversation parts share: the rows they return, the newest-first keyset and what
 * every operation works with. It imports none of the parts, so any part may import it.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { ArchiveKind } from './conversations.sql.js';

/** What every conversation operation works with. */
export interface ConversationDeps {
  db: Db;
  clock: Clock;
  faults: FaultInjector;
}

export interface OriginalRow {
  agentId: string;
  sessionId: string;
  entryId: string;
  position: number;
  /** Null for an active entry; the archive generation that holds it otherwise. */
  archiveGeneration: number | null;
  role: string | null;
  conversationId: string | null;
  /** The stored JSON text, exactly as appended. */
  payload: string;
  createdAt: Date;
  archivedAt: Date | null;
  /** Set on a compaction summary: the archive generation holding the originals it stands for. */
  summarizesGeneration: number | null;
  /** Place in the active history: a summary takes the place of the first entry it replaced. */
  historyPosition: number;
}

export interface ArchiveRow {
  agentId: string;
  sessionId: string;
  generation: number;
  entryCount: number;
  firstPosition: number | null;
  lastPosition: number | null;
  reason: string | null;
  archivedAt: Date;
  archivedByKind: string;
  archivedById: string;
  kind: ArchiveKind;
  summaryEntryId: string | null;
}

export interface SessionRow {
  agentId: string;
  sessionId: string;
  project: string | null;
  lastPosition: number;
  archiveGenerations: number;
  activeEntryCount: number;
  archivedEntryCount: number;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
  archivedByKind: string | null;
  archivedById: string | null;
  archiveReason: string | null;
}

export type SessionArchiveFilter = 'EXCLUDE' | 'INCLUDE' | 'ONLY';

/** Keyset of the newest-first lists: the timestamp in microseconds since the epoch (exact, unlike a JS Date). */
export interface NewestFirstKey {
  micros: string;
  sessionId: string;
  position?: number;
}

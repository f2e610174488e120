/**
 * Conversation originals: the evidence authority. Payloads are stored as PostgreSQL `json`
 * (the text as sent) and only ever read back as text, so key order, duplicate keys, big numbers
 * and unicode survive byte for byte. Nothing here erases an original: a reset moves the active
 * entries into a new archive generation, a compaction moves one span of them into a new generation
 * and puts a summary in its place, and archiving a session only changes its metadata.
 *
 * This class is the domain's one entry point; the work lives in the files named for it:
 * conversations.writes.ts (append, reset, compact, archive, unarchive), conversations.storage.ts
 * (the statements under the session lock), conversations.validation.ts (input checks),
 * conversations.reads.ts (reads and batch loaders), conversations.search.ts (the two-phase search),
 * conversations.references.ts (source references), conversations.rows.ts (row mapping),
 * conversations.types.ts (the shared shapes) and conversations.errors.ts.
 */
import type { Db, RoutedReader, RoutedReads } from '../../db/database.js';
import { primaryReads } from '../../db/replicas.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { Viewer } from '../../auth/viewer.js';
import * as writes from './conversations.writes.js';
import * as reads from './conversations.reads.js';
import { search, type SearchInput } from './conversations.search.js';
import { resolveReferences } from './conversations.references.js';
import type { ArchiveRow, ConversationDeps, NewestFirstKey, OriginalRow, SessionArchiveFilter, SessionRow } from './conversations.types.js';

export class ConversationsService {
  private readonly deps: ConversationDeps;
  /** Search and the session list may lag: on a read replica when one is configured (db/replicas.ts). */
  private readonly laggingDeps: RoutedReader<ConversationDeps>;

  constructor(db: Db, clock: Clock, faults: FaultInjector, reads: RoutedReads = primaryReads(db)) {
    this.deps = { db, clock, faults };
    this.laggingDeps = reads.per((on) => ({ ...this.deps, db: on }));
  }

  // ---- writes -------------------------------------------------------------------------------

  append(viewer: Viewer | null, input: Parameters<typeof writes.append>[2]): Promise<OriginalRow> {
    return writes.append(this.deps, viewer, input);
  }

  reset(viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null; reason?: string | null }): Promise<ArchiveRow> {
    return writes.reset(this.deps, viewer, input);
  }

  compact(
    viewer: Viewer | null,
    input: { agentId?: string | null; sessionId?: string | null; fromPosition: number; toPosition: number; summary: string; role?: string | null },
  ): Promise<{ archive: ArchiveRow; summary: OriginalRow }> {
    return writes.compact(this.deps, viewer, input);
  }

  archiveSession(viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null; reason?: string | null }): Promise<SessionRow> {
    return writes.archiveSession(this.deps, viewer, input);
  }

  unarchiveSession(viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null }): Promise<SessionRow> {
    return writes.unarchiveSession(this.deps, viewer, input);
  }

  // ---- reads --------------------------------------------------------------------------------

  sessions(
    viewer: Viewer | null,
    input: { agentId?: string | null; archived: SessionArchiveFilter; after: NewestFirstKey | null; limit: number },
  ): Promise<{ agentId: string; rows: (SessionRow & { micros: string })[] }> {
    return this.laggingDeps.run((deps) => reads.sessions(deps, viewer, input));
  }

  sessionPagesForAgents(
    keys: readonly { agentId: string; after: NewestFirstKey | null }[],
    archived: SessionArchiveFilter,
    limit: number,
  ): Promise<(SessionRow & { micros: string })[][]> {
    return reads.sessionPagesForAgents(this.deps, keys, archived, limit);
  }

  sessionsByKeys(keys: readonly { agentId: string; sessionId: string }[]): Promise<(SessionRow | null)[]> {
    return reads.sessionsByKeys(this.deps, keys);
  }

  originalPagesForSessions(keys: readonly { agentId: string; sessionId: string; afterPosition: number | null }[], limit: number): Promise<OriginalRow[][]> {
    return reads.originalPagesForSessions(this.deps, keys, limit);
  }

  original(viewer: Viewer | null, input: { agentId: string; sessionId: string; position: number }): Promise<OriginalRow | null> {
    return reads.original(this.deps, viewer, input);
  }

  session(viewer: Viewer | null, input: { agentId?: string | null; sessionId: string }): Promise<SessionRow | null> {
    return reads.session(this.deps, viewer, input);
  }

  originals(
    viewer: Viewer | null,
    input: { agentId?: string | null; sessionId: string; generation?: number | null; afterPosition: number | null; limit: number },
  ): Promise<{ agentId: string; rows: OriginalRow[] }> {
    return reads.originals(this.deps, viewer, input);
  }

  history(
    viewer: Viewer | null,
    input: { agentId?: string | null; sessionId: string; afterHistoryPosition: number | null; limit: number },
  ): Promise<{ agentId: string; rows: OriginalRow[] }> {
    return reads.history(this.deps, viewer, input);
  }

  archives(viewer: Viewer | null, input: { agentId?: string | null; sessionId: string }): Promise<ArchiveRow[]> {
    return reads.archives(this.deps, viewer, input);
  }

  archivesFor(keys: readonly { agentId: string; sessionId: string }[]): Promise<ArchiveRow[][]> {
    return reads.archivesFor(this.deps, keys);
  }

  search(viewer: Viewer | null, input: SearchInput): Promise<{ agentId: string; rows: (OriginalRow & { micros: string })[] }> {
    return this.laggingDeps.run((deps) => search(deps, viewer, input));
  }

  resolveReferences(agentId: string, refs: readonly string[]): Promise<Map<string, OriginalRow | null>> {
    return resolveReferences(this.deps, agentId, refs);
  }
}

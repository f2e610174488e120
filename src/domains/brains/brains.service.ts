/**
 * Brains: explicit saved memories. The one service object the rest of Burrow calls (GraphQL,
 * the CLI, the worker, tests); each responsibility lives in its own file beside this one:
 *   brains.memories.ts          saving, revision-checked updates, tombstones, revision history
 *   brains.purge.ts             an operator's purge of a tombstone's content, with its removal receipt
 *   brains.writes.ts            the new-memory insert (save and import), revision rows, brain.* events
 *   brains.validation.ts        the input checks of memories
 *   brains.types.ts             the row types and inputs shared by all of these
 *   brains.listing.ts           the operator list with its substring filter
 *   brains.as-of.ts             point-in-time reads and lists (asOf), from the revisions
 *   brains.search.ts            lexical and hybrid (embedding) ranking for brainSearch
 *   brains.embedding-indexer.ts the background embedding indexer and its status
 *   brains.albdruck-import.ts   the repeat-safe Albdruck import
 */
import type { Capabilities, Db, RoutedReader, RoutedReads } from '../../db/database.js';
import { primaryReads } from '../../db/replicas.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import type { Actor, Viewer } from '../../auth/viewer.js';
import type { AgentsService } from '../agents/agents.service.js';
import { AlbdruckImport } from './brains.albdruck-import.js';
import { BrainEmbeddingIndexer } from './brains.embedding-indexer.js';
import { BrainHistory } from './brains.as-of.js';
import { BrainListing, type ListInput } from './brains.listing.js';
import { BrainMemories } from './brains.memories.js';
import type { SaveBatcher } from './brains.save-batch.js';
import { BrainPurge } from './brains.purge.js';
import type { SaveInput, UpdateInput } from './brains.types.js';
import { BrainSearch } from './brains.search.js';
import { EmbeddingsClient, type EmbeddingsConfig } from './embeddings.js';

export class BrainsService {
  private readonly embeddings: EmbeddingsClient | null;
  private readonly memories: BrainMemories;
  private readonly purger: BrainPurge;
  /** Lists and search may lag: on a read replica when one is configured (db/replicas.ts). */
  private readonly listing: RoutedReader<BrainListing>;
  private readonly history: BrainHistory;
  private readonly searcher: RoutedReader<BrainSearch>;
  private readonly indexer: BrainEmbeddingIndexer;
  private readonly albdruck: AlbdruckImport;

  constructor(
    db: Db,
    clock: Clock,
    faults: FaultInjector,
    logger: Logger,
    capabilities: Capabilities,
    embeddingsConfig: EmbeddingsConfig | null,
    agents: AgentsService,
    reads: RoutedReads = primaryReads(db),
  ) {
    this.embeddings = embeddingsConfig ? new EmbeddingsClient(embeddingsConfig, clock) : null;
    this.memories = new BrainMemories(db, clock, faults);
    this.purger = new BrainPurge(db, clock, faults);
    this.listing = reads.per((on) => new BrainListing(on));
    this.history = new BrainHistory(db);
    this.searcher = reads.per((on) => new BrainSearch(on, capabilities, this.embeddings));
    this.indexer = new BrainEmbeddingIndexer(db, clock, logger, capabilities, this.embeddings);
    this.albdruck = new AlbdruckImport(db, clock, logger, agents);
  }

  // ---------------------------------------------------------------- memories

  save(viewer: Viewer | null, input: SaveInput) {
    return this.memories.save(viewer, input);
  }

  /** brainSave's writer: what its statements have written (/metrics) and what waits for the next one. */
  get saveBatches(): SaveBatcher {
    return this.memories.saves;
  }

  update(viewer: Viewer | null, input: UpdateInput) {
    return this.memories.update(viewer, input);
  }

  remove(viewer: Viewer | null, input: { agentId?: string | null; id: string; expectedRevision: number }) {
    return this.memories.remove(viewer, input);
  }

  deleteMany(viewer: Viewer | null, input: { agentId: string; items: { id: string; expectedRevision: number }[] }) {
    return this.memories.deleteMany(viewer, input);
  }

  /** Operators only: empties a tombstone's content and every revision's, with a removal receipt. */
  purge(viewer: Viewer | null, input: { agentId: string; memoryId: string }) {
    return this.purger.purge(viewer, input);
  }

  read(viewer: Viewer | null, input: { agentId?: string | null; id: string }) {
    return this.memories.read(viewer, input);
  }

  /** A memory as of an instant, from its revisions: null before it existed, a tombstone once removed. */
  readAsOf(viewer: Viewer | null, input: { agentId?: string | null; id: string; asOf: Date }) {
    return this.history.read(viewer, input);
  }

  readRevision(viewer: Viewer | null, input: { agentId: string; memoryId: string; revision: number }) {
    return this.memories.readRevision(viewer, input);
  }

  revisionsFor(keys: readonly { agentId: string; memoryId: string; upTo: number }[], limit: number) {
    return this.memories.revisionsFor(keys, limit);
  }

  // ---------------------------------------------------------------- listing and search

  list(viewer: Viewer | null, input: ListInput) {
    return this.listing.run((listing) => listing.list(viewer, input));
  }

  /** The whole filtered list's size (BrainMemoryConnection.totalCount). */
  count(viewer: Viewer | null, input: Pick<ListInput, 'agentId' | 'query' | 'ownership'>) {
    return this.listing.run((listing) => listing.count(viewer, input));
  }

  /** One page of each agent's list in one statement (Agent.brainMemories). */
  listPages(viewer: Viewer | null, agentIds: readonly string[], input: { query: string | null; limit: number; after: { createdAt: Date; id: string } | null }) {
    return this.listing.run((listing) => listing.pages(viewer, agentIds, input));
  }

  /** Each agent's list as of an instant, tombstones of that time included, in one statement. */
  listPagesAsOf(viewer: Viewer | null, agentIds: readonly string[], input: { query: string | null; limit: number; after: { createdAt: Date; id: string } | null; asOf: Date }) {
    return this.history.pages(viewer, agentIds, input);
  }

  search(viewer: Viewer | null, input: { agentId?: string | null; query: string; limit?: number | null }) {
    return this.searcher.run((searcher) => searcher.search(viewer, input));
  }

  /** The same search for several agents, statements constant in their number (Agent.brainSearch). */
  searchMany(viewer: Viewer | null, agentIds: readonly string[], input: { query: string; limit?: number | null }) {
    return this.searcher.run((searcher) => searcher.searchMany(viewer, agentIds, input));
  }

  // ---------------------------------------------------------------- embeddings

  get embeddingsEnabled(): boolean {
    return this.embeddings !== null;
  }

  embeddingStatus(viewer: Viewer | null, agentId: string) {
    return this.indexer.status(viewer, agentId);
  }

  indexPendingEmbeddings(options: { agentId?: string; batches?: number } = {}) {
    return this.indexer.indexPending(options);
  }

  // ---------------------------------------------------------------- legacy import

  importAlbdruckAsOperator(viewer: Viewer | null) {
    return this.albdruck.runAsOperator(viewer);
  }

  importAlbdruck(actor: Actor, onProgress?: (done: number, total: number) => void) {
    return this.albdruck.run(actor, onProgress);
  }
}

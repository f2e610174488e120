/**
 * The repeat-safe import of legacy Albdruck knowledge into Brains, labelled MIGRATED_ALBDRUCK,
 * with the legacy record kept beside each memory.
 */
import { asc, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { BurrowError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { charLength } from '../../lib/text.js';
import { actorOf, requireOperator, type Actor, type Viewer } from '../../auth/viewer.js';
import type { AgentsService } from '../agents/agents.service.js';
import {
  albdruckEvidence,
  albdruckKnowledge,
  albdruckRevisions,
  BRAIN_CONTENT_LIMIT,
  BRAIN_SOURCE_REF_LENGTH_LIMIT,
  BRAIN_SOURCE_REFS_LIMIT,
  BRAIN_TITLE_LIMIT,
  MIGRATED_ALBDRUCK,
} from './brains.sql.js';
import { emitBrainEvent, insertNewMemory, recordRevision } from './brains.writes.js';

const HATCHET = 'hatchet';

export interface ImportSummary {
  total: number;
  imported: number;
  skipped: number;
  deletedOnImport: number;
  failed: number;
  createdAgents: string[];
  failures: { legacyId: string; reason: string }[];
}

export class AlbdruckImport {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly agents: AgentsService,
  ) {}

  async runAsOperator(viewer: Viewer | null): Promise<ImportSummary> {
    const operator = requireOperator(viewer);
    return this.run(actorOf(operator));
  }

  /**
   * Copies legacy Albdruck knowledge into Brains, repeat-safely: a legacy record already imported
   * (by agent and legacy id) is skipped, so a memory edited since import is never overwritten
   * and a tombstone is never resurrected. Each record commits on its own.
   */
  async run(actor: Actor, onProgress?: (done: number, total: number) => void): Promise<ImportSummary> {
    const [{ total }] = await this.db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(albdruckKnowledge);
    const summary: ImportSummary = { total, imported: 0, skipped: 0, deletedOnImport: 0, failed: 0, createdAgents: [], failures: [] };
    const knownAgents = new Set<string>();
    let afterId: string | null = null;
    let done = 0;
    for (;;) {
      const page: (typeof albdruckKnowledge.$inferSelect)[] = await this.db
        .select()
        .from(albdruckKnowledge)
        .where(afterId === null ? undefined : gt(albdruckKnowledge.id, afterId))
        .orderBy(asc(albdruckKnowledge.id))
        .limit(200);
      if (page.length === 0) break;
      afterId = page.at(-1)!.id;
      const ids = page.map((k) => k.id);
      const evidence = await this.db
        .select()
        .from(albdruckEvidence)
        .where(inArray(albdruckEvidence.knowledgeId, ids))
        .orderBy(asc(albdruckEvidence.createdAt), asc(albdruckEvidence.id));
      const snapshots = await this.db.select().from(albdruckRevisions).where(inArray(albdruckRevisions.knowledgeId, ids)).orderBy(asc(albdruckRevisions.revision));
      for (const record of page) {
        try {
          const outcome = await this.importOne(
            record,
            evidence.filter((e) => e.knowledgeId === record.id),
            snapshots.filter((s) => s.knowledgeId === record.id),
            actor,
            knownAgents,
            summary,
          );
          if (outcome === 'skipped') summary.skipped++;
          else {
            summary.imported++;
            if (outcome === 'imported_deleted') summary.deletedOnImport++;
          }
        } catch (error) {
          summary.failed++;
          // Our own errors explain themselves; anything else stays in the log, not in the summary.
          const reason = error instanceof BurrowError ? error.message : 'unexpected error while importing (see the server log)';
          if (!(error instanceof BurrowError)) this.logger.warn('albdruck import failed', { legacyId: record.id, error: (error as Error).message });
          summary.failures.push({ legacyId: record.id, reason });
        }
        done++;
        onProgress?.(done, total);
      }
    }
    return summary;
  }

  private async importOne(
    record: typeof albdruckKnowledge.$inferSelect,
    evidence: (typeof albdruckEvidence.$inferSelect)[],
    snapshots: (typeof albdruckRevisions.$inferSelect)[],
    actor: Actor,
    knownAgents: Set<string>,
    summary: ImportSummary,
  ): Promise<'imported' | 'imported_deleted' | 'skipped'> {
    const agentId = record.ownerAgentId ?? HATCHET;
    const now = this.clock.now();
    const deleted = record.status !== 'active' || record.operatorDeleted;
    const operatorOwned = record.operatorCorrected || record.operatorDeleted;
    const rawTitle = record.title.trim() || record.body.trim().split('\n')[0]?.trim() || `Albdruck ${record.id}`;
    const title = truncate(rawTitle, BRAIN_TITLE_LIMIT);
    const content = truncate(record.body, BRAIN_CONTENT_LIMIT);
    const references = evidence.map((e) => truncate(e.reference, BRAIN_SOURCE_REF_LENGTH_LIMIT)).filter((r) => r.trim() !== '');
    const sourceRefs = references.slice(0, BRAIN_SOURCE_REFS_LIMIT);
    const legacy = {
      source: 'albdruck',
      knowledgeId: record.id,
      scope: record.ownerAgentId ? 'agent' : 'global',
      legacyOwnerAgentId: record.ownerAgentId,
      status: record.status,
      operatorCorrected: record.operatorCorrected,
      operatorDeleted: record.operatorDeleted,
      createdBy: record.createdBy,
      legacyCreatedAt: record.createdAt.toISOString(),
      legacyUpdatedAt: record.updatedAt.toISOString(),
      importedAt: now.toISOString(),
      importedBy: actor,
      truncated: { title: title !== rawTitle, content: content !== record.body, sourceRefs: references.length > sourceRefs.length },
      evidence: evidence.map((e) => ({ id: e.id, reference: e.reference, excerpt: e.excerpt, createdAt: e.createdAt.toISOString() })),
      snapshots: snapshots.map((s) => ({ revision: s.revision, title: s.title, body: s.body, status: s.status, changedBy: s.changedBy, changedAt: s.changedAt.toISOString() })),
    };
    // Checked before the transaction: the embedded pool has one connection, which the
    // transaction holds.
    const mustCreateAgent = !knownAgents.has(agentId) && (await this.agents.agentsByIds([agentId])).length === 0;
    let createdAgent = false;
    const outcome = await this.db.transaction(async (tx) => {
      if (mustCreateAgent) {
        await this.agents.ensureAgent(tx, agentId, agentId, actor);
        createdAgent = true;
      }
      const ownership = operatorOwned ? 'OPERATOR' : 'AGENT';
      const [memory] = await insertNewMemory(
        tx,
        { agentId, id: newId(), title, content, sourceRefs, ownership, actorKind: actor.kind, actorId: actor.id, createdAt: record.createdAt, updatedAt: now },
        { deletedAt: deleted ? now : null, label: MIGRATED_ALBDRUCK, legacyKnowledgeId: record.id, importedRevision: 1, legacy },
      )
        .onConflictDoNothing()
        .returning();
      if (!memory) return 'skipped' as const;
      await recordRevision(tx, memory, 'imported', actor);
      if (!deleted) await emitBrainEvent(tx, this.clock, memory, 'brain.created', actor, { label: MIGRATED_ALBDRUCK });
      return deleted ? ('imported_deleted' as const) : ('imported' as const);
    });
    // Only after commit: a rolled-back record created nothing.
    knownAgents.add(agentId);
    if (createdAgent) summary.createdAgents.push(agentId);
    return outcome;
  }
}

function truncate(text: string, limit: number): string {
  return charLength(text) <= limit ? text : Array.from(text).slice(0, limit).join('');
}

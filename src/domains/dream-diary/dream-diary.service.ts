/**
 * The Dream diary: dated narrative entries per agent for operators, kept apart from the compact
 * DREAM_MEMORY profile document. Operators only, in both directions: an agent token can neither
 * read nor write it, and nothing an agent reads (ambientContinuity, profiles, events) includes
 * it, so it can never become prompt authority. Entries are append-only; retention removes them
 * once they have been expired (BURROW_DREAM_DIARY_RETENTION_DAYS after writing) longer than the
 * grace period.
 */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { expiryAfter } from '../../lib/expiry.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { charLength } from '../../lib/text.js';
import { actorOf, requireOperator, type Viewer } from '../../auth/viewer.js';
import { DREAM_DIARY_LIMITS, dreamDiaryEntries } from './dream-diary.sql.js';

export type DreamDiaryEntryRow = typeof dreamDiaryEntries.$inferSelect;

export class DreamDiaryService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly retentionDays: number,
    private readonly agentExists: (agentId: string) => Promise<boolean>,
  ) {}

  /** Appends one entry; `entryDate` (YYYY-MM-DD) defaults to today (UTC) on the server clock. */
  async append(viewer: Viewer | null, input: { agentId: string; entryDate?: string | null; title?: string | null; body: string }): Promise<DreamDiaryEntryRow> {
    const actor = actorOf(requireOperator(viewer));
    const now = this.clock.now();
    const entryDate = input.entryDate ?? now.toISOString().slice(0, 10);
    if (!isCalendarDate(entryDate)) throw new ValidationError('entryDate', 'entryDate must be a calendar date YYYY-MM-DD');
    const title = (input.title ?? '').trim();
    assertCleanText('title', title, DREAM_DIARY_LIMITS.title);
    assertCleanText('body', input.body, DREAM_DIARY_LIMITS.body);
    if (charLength(title) > DREAM_DIARY_LIMITS.title) throw new ValidationError('title', `title must be at most ${DREAM_DIARY_LIMITS.title} characters`, DREAM_DIARY_LIMITS.title);
    const bodyLength = charLength(input.body);
    if (input.body.trim() === '' || bodyLength > DREAM_DIARY_LIMITS.body) {
      throw new ValidationError('body', `body must be 1 to ${DREAM_DIARY_LIMITS.body} characters`, DREAM_DIARY_LIMITS.body);
    }
    if (!(await this.agentExists(input.agentId))) throw new NotFoundError('Agent', input.agentId);
    const [row] = await this.db
      .insert(dreamDiaryEntries)
      .values({ agentId: input.agentId, id: newId(), entryDate, title, body: input.body, writtenBy: actor.id, createdAt: now, expiresAt: expiryAfter(now, this.retentionDays) })
      .returning();
    return row;
  }

  /**
   * Newest first (by entry date, then writing time, then id); expired entries are hidden at once.
   * `after` is the (entryDate, createdAt, id) of the last entry of the previous page.
   */
  async list(viewer: Viewer | null, agentId: string, page: { limit: number; after: { entryDate: string; createdAt: Date; id: string } | null }): Promise<DreamDiaryEntryRow[]> {
    requireOperator(viewer);
    const e = dreamDiaryEntries;
    return this.db
      .select()
      .from(e)
      .where(
        and(
          eq(e.agentId, agentId),
          sql`${e.expiresAt} > ${this.clock.now()}`,
          page.after
            ? sql`(${e.entryDate}, ${e.createdAt}, ${e.id}) < (${page.after.entryDate}::date, ${page.after.createdAt.toISOString()}::timestamptz, ${page.after.id})`
            : undefined,
        ),
      )
      .orderBy(desc(e.entryDate), desc(e.createdAt), desc(e.id))
      .limit(page.limit);
  }

  /** One entry, for node(id): operators only, like the list. Expired entries are hidden. */
  async get(viewer: Viewer | null, agentId: string, id: string): Promise<DreamDiaryEntryRow | null> {
    requireOperator(viewer);
    const [row] = await this.db
      .select()
      .from(dreamDiaryEntries)
      .where(and(eq(dreamDiaryEntries.agentId, agentId), eq(dreamDiaryEntries.id, id), sql`${dreamDiaryEntries.expiresAt} > ${this.clock.now()}`));
    return row ?? null;
  }

  /** Retention: removes entries expired before `cutoff`. The only way an entry ever goes. */
  async sweepExpired(cutoff: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('burrow.dream_diary_retention', 'on', true)`);
      const removed = await tx.delete(dreamDiaryEntries).where(lt(dreamDiaryEntries.expiresAt, cutoff)).returning({ id: dreamDiaryEntries.id });
      return removed.length;
    });
  }
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

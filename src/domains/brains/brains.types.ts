/**
 * The row types and inputs of Brains memories, shared by the memories, the listing, search, the
 * import, the GraphQL types and the MCP results (a module of its own so none imports another for a type).
 */
import type { brainMemories, brainMemoryRevisions } from './brains.sql.js';

export type BrainMemoryRow = typeof brainMemories.$inferSelect;
export type BrainRevisionRow = typeof brainMemoryRevisions.$inferSelect;

export const DELETE_BATCH_MAX = 100;

export type DeletionStatus = 'DELETED' | 'NOT_FOUND' | 'REVISION_CONFLICT' | 'FORBIDDEN' | 'INVALID';

export interface DeletionResult {
  id: string;
  status: DeletionStatus;
  message: string;
  currentRevision: number | null;
  memory: BrainMemoryRow | null;
}

export interface SaveInput {
  agentId?: string | null;
  title: string;
  content: string;
  sourceRefs?: string[] | null;
  /** A retry with the same key answers the first save (db/idempotency.ts). */
  idempotencyKey?: string | null;
}

export interface UpdateInput {
  agentId?: string | null;
  id: string;
  expectedRevision: number;
  title?: string | null;
  content?: string | null;
  sourceRefs?: string[] | null;
}

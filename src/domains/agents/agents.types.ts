/**
 * The row types and inputs of agents and their profiles, shared by the service, its parts and the
 * GraphQL types (a module of its own so none of them imports another for a type).
 */
import type { agentProfileDocuments, agentProfileRevisions, agents, preferenceLearningState, preferenceSignals, profileAuditLog, ProfileKind } from './agents.sql.js';

export type AgentRow = typeof agents.$inferSelect;
export type ProfileDocumentRow = typeof agentProfileDocuments.$inferSelect;
/** A profile document read for its content only (ProfileDocuments.documentsForAgents). */
export type ProfileDocumentContent = Pick<ProfileDocumentRow, 'agentId' | 'kind' | 'content' | 'revision'>;
export type ProfileRevisionRow = typeof agentProfileRevisions.$inferSelect;
export type PreferenceLearningStateRow = typeof preferenceLearningState.$inferSelect;
export type ProfileAuditRow = typeof profileAuditLog.$inferSelect;
export type PreferenceSignalRow = typeof preferenceSignals.$inferSelect;

export interface DocumentInput {
  kind: ProfileKind;
  content: string;
  expectedRevision?: number | null;
}

export const profileReference = (agentId: string, kind: string) => `postgres:agent_profile_documents/${agentId}/${kind}`;

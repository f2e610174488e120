/**
 * The tables that hold an agent's data, in foreign-key order: a table comes after every table it
 * references. Not listed: the agents row itself, the agent's API tokens, its event log and the
 * removal receipts and its idempotency keys, which the archive and the erasure each treat on their own. The agent archive
 * copies these tables in this order and the agent erasure removes them in the reverse order, so a
 * new per-agent store is added here once; the guard tests of both fail until it is.
 */
export const AGENT_DATA_TABLES = [
  'agent_profile_documents',
  'agent_profile_revisions',
  'profile_audit_log',
  'preference_learning_state',
  'preference_signals',
  'brain_memories',
  'brain_memory_revisions',
  'brain_embeddings',
  'working_records',
  'session_handoffs',
  'conversation_sessions',
  'conversation_entries',
  'conversation_archives',
  'conversation_archive_entries',
  'tiddle_entries',
  'tiddle_cards',
  'tiddle_envelopes',
  'tiddle_settings',
  'continuity_state',
  'continuity_log',
  'continuity_effects',
  'continuity_owners',
  'dream_diary_entries',
  'agent_settings',
] as const;

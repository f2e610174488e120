-- Conversation history: what Drizzle cannot express.

-- The union view gains the summary link and the active-history order (new columns go last, as
-- CREATE OR REPLACE VIEW requires). It stays a read-only UNION ALL.
CREATE OR REPLACE VIEW conversation_original_rows AS
  SELECT agent_id, session_id, id AS entry_id, position, NULL::integer AS archive_generation,
         role, conversation_id, payload, created_at, NULL::timestamptz AS archived_at,
         summarizes_generation, history_position
    FROM conversation_entries
  UNION ALL
  SELECT agent_id, session_id, id AS entry_id, position, generation AS archive_generation,
         role, conversation_id, payload, created_at, archived_at,
         summarizes_generation, history_position
    FROM conversation_archive_entries;
--> statement-breakpoint
-- Search over originals: case-insensitive substring (ILIKE) of the payload's JSON text, backed by
-- trigram indexes (pg_trgm from 0001) on both payload stores.
CREATE INDEX conversation_entries_payload_trgm_idx ON conversation_entries USING gin ((payload::text) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX conversation_archive_entries_payload_trgm_idx ON conversation_archive_entries USING gin ((payload::text) gin_trgm_ops);
--> statement-breakpoint
-- The session counters start from what the stores hold.
UPDATE conversation_sessions s
   SET active_entry_count = (SELECT count(*) FROM conversation_entries e WHERE e.agent_id = s.agent_id AND e.session_id = s.session_id),
       archived_entry_count = (SELECT count(*) FROM conversation_archive_entries a WHERE a.agent_id = s.agent_id AND a.session_id = s.session_id);
--> statement-breakpoint
-- A summary stands for a generation; its place in the active history is a position it replaced.
ALTER TABLE conversation_entries ADD CONSTRAINT conversation_entries_summary_shape
  CHECK ((summarizes_generation IS NULL OR summarizes_generation >= 1) AND (history_position IS NULL OR (summarizes_generation IS NOT NULL AND history_position >= 1 AND history_position < position)));
--> statement-breakpoint
-- The active history's order: unique per session, and the index conversationHistory pages by.
CREATE UNIQUE INDEX conversation_entries_history_key ON conversation_entries (agent_id, session_id, (COALESCE(history_position, position)));

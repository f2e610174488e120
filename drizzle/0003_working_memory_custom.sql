-- Working memory, handoffs and conversation originals: what Drizzle cannot express.

-- The read-only original-history lookup: one union over the active and archived payload stores.
-- UNION ALL because json has no equality operator (and an entry lives in exactly one of them).
-- A view over a UNION is not updatable, so nothing can be written through it.
CREATE VIEW conversation_original_rows AS
  SELECT agent_id, session_id, id AS entry_id, position, NULL::integer AS archive_generation,
         role, conversation_id, payload, created_at, NULL::timestamptz AS archived_at
    FROM conversation_entries
  UNION ALL
  SELECT agent_id, session_id, id AS entry_id, position, generation AS archive_generation,
         role, conversation_id, payload, created_at, archived_at
    FROM conversation_archive_entries;
--> statement-breakpoint
-- Per-element bounds of source-reference lists, usable in CHECK constraints.
CREATE FUNCTION burrow_text_array_max_length(items text[]) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT COALESCE(max(char_length(item)), 0) FROM unnest(items) AS item $$;
--> statement-breakpoint
CREATE FUNCTION burrow_handoff_refs_valid(refs jsonb) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT jsonb_typeof(refs) = 'array' AND NOT EXISTS (
      SELECT 1 FROM jsonb_array_elements(refs) AS element
       WHERE jsonb_typeof(element) <> 'object'
          OR jsonb_typeof(element -> 'ref') IS DISTINCT FROM 'string'
          OR char_length(element ->> 'ref') NOT BETWEEN 1 AND 1000
          OR (element ->> 'evidence') IS NULL
          OR (element ->> 'evidence') NOT IN ('ASSISTANT_ASSERTION', 'TOOL_EVIDENCE')
    )
  $$;
--> statement-breakpoint
ALTER TABLE working_records ADD CONSTRAINT working_records_source_ref_length
  CHECK (burrow_text_array_max_length(source_refs) <= 1000 AND array_position(source_refs, '') IS NULL);
--> statement-breakpoint
ALTER TABLE session_handoffs ADD CONSTRAINT session_handoffs_source_refs_shape
  CHECK (burrow_handoff_refs_valid(source_refs));
--> statement-breakpoint
-- Lexical search over title and content (case-insensitive substring, pg_trgm from 0001).
CREATE INDEX working_records_text_trgm_idx ON working_records USING gin ((title || ' ' || content) gin_trgm_ops);
--> statement-breakpoint
-- Archived entries belong to an archive header.
ALTER TABLE conversation_archive_entries ADD CONSTRAINT conversation_archive_entries_archive_fk
  FOREIGN KEY (agent_id, session_id, generation)
  REFERENCES conversation_archives (agent_id, session_id, generation);

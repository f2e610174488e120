-- drizzle-kit generates DROP INDEX and CREATE INDEX ... WITH (gin_pending_list_limit=256) for this
-- change, which would rebuild both trigram indexes of every existing memory; setting the storage
-- parameter reaches the same definition at once (the pending list shrinks at its next merge).
ALTER INDEX "brain_memories_title_trgm_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "brain_memories_content_trgm_idx" SET (gin_pending_list_limit = 256);

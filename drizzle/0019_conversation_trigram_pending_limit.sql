-- conversationSearch reads each payload store's trigram index (0010), and every such scan reads
-- the index's pending list in full: up to 4 MB by default (~500 pages; the conversations bench's
-- 1,000,000 seeded originals left 439 pending pages in the archive's index and 121 in the active
-- one). 256 kB (~32 pages) bounds it as brain_memories' trigram indexes are bounded (0016);
-- setting the storage parameter changes no index content (the list shrinks at its next merge).
ALTER INDEX conversation_entries_payload_trgm_idx SET (gin_pending_list_limit = 256);
--> statement-breakpoint
ALTER INDEX conversation_archive_entries_payload_trgm_idx SET (gin_pending_list_limit = 256);

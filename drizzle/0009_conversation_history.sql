ALTER TABLE "conversation_archive_entries" ADD COLUMN "summarizes_generation" integer;--> statement-breakpoint
ALTER TABLE "conversation_archive_entries" ADD COLUMN "history_position" bigint;--> statement-breakpoint
ALTER TABLE "conversation_archives" ADD COLUMN "kind" text DEFAULT 'reset' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_archives" ADD COLUMN "summary_entry_id" text;--> statement-breakpoint
ALTER TABLE "conversation_entries" ADD COLUMN "summarizes_generation" integer;--> statement-breakpoint
ALTER TABLE "conversation_entries" ADD COLUMN "history_position" bigint;--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD COLUMN "active_entry_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD COLUMN "archived_entry_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD COLUMN "archived_by_kind" text;--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD COLUMN "archived_by_id" text;--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD COLUMN "archive_reason" text;--> statement-breakpoint
CREATE INDEX "conversation_archive_entries_agent_created_idx" ON "conversation_archive_entries" USING btree ("agent_id","created_at","session_id","position");--> statement-breakpoint
CREATE INDEX "conversation_entries_agent_created_idx" ON "conversation_entries" USING btree ("agent_id","created_at","session_id","position");--> statement-breakpoint
CREATE INDEX "conversation_sessions_agent_created_idx" ON "conversation_sessions" USING btree ("agent_id","created_at","session_id");--> statement-breakpoint
ALTER TABLE "conversation_archives" ADD CONSTRAINT "conversation_archives_kind" CHECK ("conversation_archives"."kind" IN ('reset', 'compaction') AND ("conversation_archives"."kind" = 'compaction') = ("conversation_archives"."summary_entry_id" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD CONSTRAINT "conversation_sessions_counts_nonnegative" CHECK ("conversation_sessions"."active_entry_count" >= 0 AND "conversation_sessions"."archived_entry_count" >= 0);--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD CONSTRAINT "conversation_sessions_archive_reason_length" CHECK (char_length("conversation_sessions"."archive_reason") <= 2000);--> statement-breakpoint
ALTER TABLE "conversation_sessions" ADD CONSTRAINT "conversation_sessions_archived_by" CHECK (("conversation_sessions"."archived_at" IS NULL AND "conversation_sessions"."archived_by_kind" IS NULL AND "conversation_sessions"."archived_by_id" IS NULL AND "conversation_sessions"."archive_reason" IS NULL) OR ("conversation_sessions"."archived_at" IS NOT NULL AND "conversation_sessions"."archived_by_kind" IS NOT NULL AND "conversation_sessions"."archived_by_id" IS NOT NULL));
CREATE TABLE "data_removal_receipts" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"forced" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"content_hash" text NOT NULL,
	CONSTRAINT "data_removal_receipts_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "data_removal_receipts_kind" CHECK ("data_removal_receipts"."kind" IN ('AGENT_ERASURE', 'MEMORY_PURGE')),
	CONSTRAINT "data_removal_receipts_subject" CHECK (("data_removal_receipts"."kind" = 'MEMORY_PURGE') = ("data_removal_receipts"."subject_id" IS NOT NULL)),
	CONSTRAINT "data_removal_receipts_hash_format" CHECK ("data_removal_receipts"."content_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "brain_memories" DROP CONSTRAINT "brain_memories_title_length";--> statement-breakpoint
ALTER TABLE "brain_memory_revisions" DROP CONSTRAINT "brain_memory_revisions_title_length";--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "erasure_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "brain_memories" ADD COLUMN "purged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "brain_memories" ADD COLUMN "purged_by_kind" text;--> statement-breakpoint
ALTER TABLE "brain_memories" ADD COLUMN "purged_by_id" text;--> statement-breakpoint
CREATE INDEX "data_removal_receipts_started_idx" ON "data_removal_receipts" USING btree ("started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "brain_memories" ADD CONSTRAINT "brain_memories_purged_tombstone" CHECK ("brain_memories"."purged_at" IS NULL OR "brain_memories"."deleted_at" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "brain_memories" ADD CONSTRAINT "brain_memories_title_length" CHECK (char_length("brain_memories"."title") BETWEEN 1 AND 240 OR ("brain_memories"."purged_at" IS NOT NULL AND "brain_memories"."title" = ''));--> statement-breakpoint
ALTER TABLE "brain_memory_revisions" ADD CONSTRAINT "brain_memory_revisions_title_length" CHECK (char_length("brain_memory_revisions"."title") <= 240);
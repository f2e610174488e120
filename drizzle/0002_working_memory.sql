CREATE TABLE "conversation_archive_entries" (
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"generation" integer NOT NULL,
	"id" text NOT NULL,
	"position" bigint NOT NULL,
	"role" text,
	"conversation_id" text,
	"payload" json NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"archived_at" timestamp with time zone NOT NULL,
	CONSTRAINT "conversation_archive_entries_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "conversation_archive_entries_position_key" UNIQUE("agent_id","session_id","position")
);
--> statement-breakpoint
CREATE TABLE "conversation_archives" (
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"generation" integer NOT NULL,
	"entry_count" integer NOT NULL,
	"first_position" bigint,
	"last_position" bigint,
	"reason" text,
	"archived_at" timestamp with time zone NOT NULL,
	"archived_by_kind" text NOT NULL,
	"archived_by_id" text NOT NULL,
	CONSTRAINT "conversation_archives_agent_id_session_id_generation_pk" PRIMARY KEY("agent_id","session_id","generation"),
	CONSTRAINT "conversation_archives_generation_positive" CHECK ("conversation_archives"."generation" >= 1),
	CONSTRAINT "conversation_archives_reason_length" CHECK (char_length("conversation_archives"."reason") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "conversation_entries" (
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"id" text NOT NULL,
	"position" bigint NOT NULL,
	"role" text,
	"conversation_id" text,
	"payload" json NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "conversation_entries_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "conversation_entries_position_key" UNIQUE("agent_id","session_id","position"),
	CONSTRAINT "conversation_entries_position_positive" CHECK ("conversation_entries"."position" >= 1),
	CONSTRAINT "conversation_entries_payload_length" CHECK (char_length("conversation_entries"."payload"::text) <= 1000000),
	CONSTRAINT "conversation_entries_role_length" CHECK (char_length("conversation_entries"."role") BETWEEN 1 AND 64)
);
--> statement-breakpoint
CREATE TABLE "conversation_sessions" (
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"project" text,
	"last_position" bigint DEFAULT 0 NOT NULL,
	"archive_generation" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "conversation_sessions_agent_id_session_id_pk" PRIMARY KEY("agent_id","session_id"),
	CONSTRAINT "conversation_sessions_session_length" CHECK (char_length("conversation_sessions"."session_id") BETWEEN 1 AND 200)
);
--> statement-breakpoint
CREATE TABLE "session_handoffs" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"project" text NOT NULL,
	"session_id" text NOT NULL,
	"conversation_id" text,
	"origin" text NOT NULL,
	"title" text NOT NULL,
	"goal" text NOT NULL,
	"outcome" text NOT NULL,
	"body" text NOT NULL,
	"source_refs" jsonb NOT NULL,
	"ttl_days" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revision" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"written_by_kind" text NOT NULL,
	"written_by_id" text NOT NULL,
	CONSTRAINT "session_handoffs_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "session_handoffs_origin" CHECK ("session_handoffs"."origin" IN ('EXPLICIT', 'AUTOMATIC')),
	CONSTRAINT "session_handoffs_title_length" CHECK (char_length("session_handoffs"."title") BETWEEN 1 AND 240),
	CONSTRAINT "session_handoffs_goal_length" CHECK (char_length("session_handoffs"."goal") <= 4000),
	CONSTRAINT "session_handoffs_outcome_length" CHECK (char_length("session_handoffs"."outcome") <= 4000),
	CONSTRAINT "session_handoffs_body_length" CHECK (char_length("session_handoffs"."body") <= 24000),
	CONSTRAINT "session_handoffs_source_refs_count" CHECK (jsonb_typeof("session_handoffs"."source_refs") = 'array' AND jsonb_array_length("session_handoffs"."source_refs") <= 8),
	CONSTRAINT "session_handoffs_ttl_days" CHECK ("session_handoffs"."ttl_days" BETWEEN 1 AND 36500),
	CONSTRAINT "session_handoffs_project_length" CHECK (char_length("session_handoffs"."project") BETWEEN 1 AND 200),
	CONSTRAINT "session_handoffs_session_length" CHECK (char_length("session_handoffs"."session_id") BETWEEN 1 AND 200)
);
--> statement-breakpoint
CREATE TABLE "working_records" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"project" text NOT NULL,
	"session_id" text,
	"conversation_id" text,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"source_refs" text[] NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"ttl_days" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"superseded_by" text,
	"revision" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"written_by_kind" text NOT NULL,
	"written_by_id" text NOT NULL,
	CONSTRAINT "working_records_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "working_records_kind" CHECK ("working_records"."kind" IN ('DECISION', 'FINDING', 'BLOCKER', 'HANDOFF', 'TASK')),
	CONSTRAINT "working_records_state" CHECK ("working_records"."state" IN ('ACTIVE', 'RESOLVED', 'SUPERSEDED')),
	CONSTRAINT "working_records_title_length" CHECK (char_length("working_records"."title") BETWEEN 1 AND 240),
	CONSTRAINT "working_records_content_length" CHECK (char_length("working_records"."content") <= 6000),
	CONSTRAINT "working_records_source_refs_count" CHECK (cardinality("working_records"."source_refs") <= 12),
	CONSTRAINT "working_records_ttl_days" CHECK ("working_records"."ttl_days" BETWEEN 1 AND 36500),
	CONSTRAINT "working_records_project_length" CHECK (char_length("working_records"."project") BETWEEN 1 AND 200),
	CONSTRAINT "working_records_superseded_link" CHECK (("working_records"."state" = 'SUPERSEDED') = ("working_records"."superseded_by" IS NOT NULL)),
	CONSTRAINT "working_records_not_self_superseded" CHECK ("working_records"."superseded_by" IS DISTINCT FROM "working_records"."id"),
	CONSTRAINT "working_records_revision_positive" CHECK ("working_records"."revision" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "session_handoffs_session_key" ON "session_handoffs" USING btree ("agent_id","project","session_id");--> statement-breakpoint
CREATE INDEX "session_handoffs_recent_idx" ON "session_handoffs" USING btree ("agent_id","project","updated_at");--> statement-breakpoint
CREATE INDEX "session_handoffs_expiry_idx" ON "session_handoffs" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "working_records_scope_idx" ON "working_records" USING btree ("agent_id","project","created_at","id");--> statement-breakpoint
CREATE INDEX "working_records_expiry_idx" ON "working_records" USING btree ("expires_at");
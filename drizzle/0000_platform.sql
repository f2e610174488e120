CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"agent_id" text,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "api_tokens_kind" CHECK ("api_tokens"."kind" IN ('operator', 'agent')),
	CONSTRAINT "api_tokens_agent_binding" CHECK (("api_tokens"."kind" = 'agent') = ("api_tokens"."agent_id" IS NOT NULL)),
	CONSTRAINT "api_tokens_name_length" CHECK (char_length("api_tokens"."name") BETWEEN 1 AND 200)
);
--> statement-breakpoint
CREATE TABLE "agent_profile_documents" (
	"agent_id" text NOT NULL,
	"kind" text NOT NULL,
	"content" text NOT NULL,
	"revision" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by_kind" text NOT NULL,
	"updated_by_id" text NOT NULL,
	CONSTRAINT "agent_profile_documents_agent_id_kind_pk" PRIMARY KEY("agent_id","kind"),
	CONSTRAINT "agent_profile_documents_kind" CHECK ("agent_profile_documents"."kind" IN ('SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY')),
	CONSTRAINT "agent_profile_documents_content_limit" CHECK (char_length("agent_profile_documents"."content") <= 48000),
	CONSTRAINT "agent_profile_documents_revision_positive" CHECK ("agent_profile_documents"."revision" >= 1)
);
--> statement-breakpoint
CREATE TABLE "agent_profile_revisions" (
	"agent_id" text NOT NULL,
	"kind" text NOT NULL,
	"revision" integer NOT NULL,
	"content" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_profile_revisions_agent_id_kind_revision_pk" PRIMARY KEY("agent_id","kind","revision"),
	CONSTRAINT "agent_profile_revisions_content_limit" CHECK (char_length("agent_profile_revisions"."content") <= 48000)
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"last_event_sequence" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "agents_id_format" CHECK ("agents"."id" ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
	CONSTRAINT "agents_name_length" CHECK (char_length("agents"."name") BETWEEN 1 AND 200)
);
--> statement-breakpoint
CREATE TABLE "preference_learning_state" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"applied_count" integer DEFAULT 0 NOT NULL,
	"last_applied_revision" integer,
	"last_applied_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "preference_signals" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"source" text NOT NULL,
	"project" text,
	"statement" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "preference_signals_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "preference_signals_statement_length" CHECK (char_length("preference_signals"."statement") BETWEEN 1 AND 2000),
	CONSTRAINT "preference_signals_status" CHECK ("preference_signals"."status" IN ('pending', 'applied', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "profile_audit_log" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"from_revision" integer NOT NULL,
	"to_revision" integer NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "profile_audit_log_agent_id_id_pk" PRIMARY KEY("agent_id","id")
);
--> statement-breakpoint
CREATE TABLE "agent_events" (
	"agent_id" text NOT NULL,
	"sequence" bigint NOT NULL,
	"stream" text NOT NULL,
	"type" text NOT NULL,
	"subject_id" text NOT NULL,
	"project" text,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_events_agent_id_sequence_pk" PRIMARY KEY("agent_id","sequence")
);
--> statement-breakpoint
CREATE INDEX "api_tokens_agent_idx" ON "api_tokens" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "profile_audit_log_time_idx" ON "profile_audit_log" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_events_stream_idx" ON "agent_events" USING btree ("agent_id","stream","sequence");--> statement-breakpoint
CREATE INDEX "agent_events_occurred_idx" ON "agent_events" USING btree ("occurred_at");
CREATE TABLE "tiddle_cards" (
	"agent_id" text NOT NULL,
	"project" text NOT NULL,
	"card_id" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"card" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL,
	"expired_at" timestamp with time zone,
	CONSTRAINT "tiddle_cards_agent_id_project_card_id_pk" PRIMARY KEY("agent_id","project","card_id"),
	CONSTRAINT "tiddle_cards_title_length" CHECK (char_length("tiddle_cards"."title") BETWEEN 1 AND 240),
	CONSTRAINT "tiddle_cards_body_length" CHECK (char_length("tiddle_cards"."body") BETWEEN 1 AND 6000),
	CONSTRAINT "tiddle_cards_card_id_length" CHECK (char_length("tiddle_cards"."card_id") BETWEEN 1 AND 100),
	CONSTRAINT "tiddle_cards_evidence_bound" CHECK (jsonb_typeof("tiddle_cards"."card" -> 'evidence') = 'array' AND jsonb_array_length("tiddle_cards"."card" -> 'evidence') <= 64),
	CONSTRAINT "tiddle_cards_revision_positive" CHECK ("tiddle_cards"."revision" >= 1)
);
--> statement-breakpoint
CREATE TABLE "tiddle_entries" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"project" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"session_id" text,
	"excerpts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tiddle_entries_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "tiddle_entries_reference_unique" UNIQUE("agent_id","project","kind","reference"),
	CONSTRAINT "tiddle_entries_kind" CHECK ("tiddle_entries"."kind" IN ('residue', 'history')),
	CONSTRAINT "tiddle_entries_reference_length" CHECK (char_length("tiddle_entries"."reference") BETWEEN 1 AND 200),
	CONSTRAINT "tiddle_entries_project_length" CHECK (char_length("tiddle_entries"."project") BETWEEN 1 AND 200),
	CONSTRAINT "tiddle_entries_excerpt_bound" CHECK (jsonb_typeof("tiddle_entries"."excerpts") = 'array' AND jsonb_array_length("tiddle_entries"."excerpts") <= 8 AND char_length("tiddle_entries"."excerpts"::text) <= 60000)
);
--> statement-breakpoint
CREATE TABLE "tiddle_envelopes" (
	"agent_id" text NOT NULL,
	"project" text NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"claim_token" text,
	"claimed_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_pass_id" text,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tiddle_envelopes_agent_id_project_pk" PRIMARY KEY("agent_id","project"),
	CONSTRAINT "tiddle_envelopes_failures" CHECK ("tiddle_envelopes"."consecutive_failures" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tiddle_settings" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"card_ttl_days" integer DEFAULT 90 NOT NULL,
	"last_synthesis_on" date,
	"last_synthesis_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "tiddle_settings_ttl_range" CHECK ("tiddle_settings"."card_ttl_days" BETWEEN 1 AND 36500)
);
--> statement-breakpoint
CREATE INDEX "tiddle_cards_refreshed_idx" ON "tiddle_cards" USING btree ("agent_id","project","refreshed_at");--> statement-breakpoint
CREATE INDEX "tiddle_cards_agent_refreshed_idx" ON "tiddle_cards" USING btree ("agent_id","refreshed_at");--> statement-breakpoint
CREATE INDEX "tiddle_entries_window_idx" ON "tiddle_entries" USING btree ("agent_id","project","kind","created_at");--> statement-breakpoint
CREATE INDEX "tiddle_envelopes_next_run_idx" ON "tiddle_envelopes" USING btree ("next_run_at");
CREATE TABLE "continuity_effects" (
	"agent_id" text NOT NULL,
	"run_id" text NOT NULL,
	"effect_id" text NOT NULL,
	"kind" text NOT NULL,
	"request" json NOT NULL,
	"intended_generation" integer NOT NULL,
	"intended_by" text NOT NULL,
	"intended_at" timestamp with time zone NOT NULL,
	"outcome" text DEFAULT 'UNKNOWN' NOT NULL,
	"receipt" json,
	"receipt_generation" integer,
	"receipt_by" text,
	"receipt_at" timestamp with time zone,
	CONSTRAINT "continuity_effects_agent_id_run_id_effect_id_pk" PRIMARY KEY("agent_id","run_id","effect_id"),
	CONSTRAINT "continuity_effects_outcome" CHECK ("continuity_effects"."outcome" IN ('UNKNOWN', 'SUCCEEDED', 'FAILED')),
	CONSTRAINT "continuity_effects_effect_id" CHECK (char_length("continuity_effects"."effect_id") BETWEEN 1 AND 128),
	CONSTRAINT "continuity_effects_kind" CHECK (char_length("continuity_effects"."kind") BETWEEN 1 AND 200),
	CONSTRAINT "continuity_effects_request_limit" CHECK (char_length("continuity_effects"."request"::text) <= 65536),
	CONSTRAINT "continuity_effects_receipt_limit" CHECK (char_length("continuity_effects"."receipt"::text) <= 65536),
	CONSTRAINT "continuity_effects_receipt_complete" CHECK (("continuity_effects"."outcome" = 'UNKNOWN') = ("continuity_effects"."receipt_at" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "continuity_log" (
	"agent_id" text NOT NULL,
	"run_id" text NOT NULL,
	"position" integer NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"generation" integer NOT NULL,
	"owner_id" text NOT NULL,
	"reason" text NOT NULL,
	"event_sequence" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "continuity_log_agent_id_run_id_position_pk" PRIMARY KEY("agent_id","run_id","position"),
	CONSTRAINT "continuity_log_to_state" CHECK ("continuity_log"."to_state" IN ('RUNNING', 'FINALIZING', 'COMPLETED', 'INTERRUPTED', 'RECOVERY_PENDING')),
	CONSTRAINT "continuity_log_from_state" CHECK ("continuity_log"."from_state" IS NULL OR "continuity_log"."from_state" IN ('RUNNING', 'FINALIZING', 'COMPLETED', 'INTERRUPTED', 'RECOVERY_PENDING')),
	CONSTRAINT "continuity_log_reason_length" CHECK (char_length("continuity_log"."reason") BETWEEN 1 AND 2000)
);
--> statement-breakpoint
CREATE TABLE "continuity_owners" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"instance" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "continuity_owners_agent_id_id_pk" PRIMARY KEY("agent_id","id")
);
--> statement-breakpoint
CREATE TABLE "continuity_state" (
	"agent_id" text NOT NULL,
	"run_id" text NOT NULL,
	"session_id" text,
	"project" text,
	"state" text NOT NULL,
	"generation" integer NOT NULL,
	"owner_id" text NOT NULL,
	"head" json NOT NULL,
	"head_revision" integer DEFAULT 0 NOT NULL,
	"final_result" json,
	"interruption_manifest" json,
	"recovery_queue" json,
	"effect_count" integer DEFAULT 0 NOT NULL,
	"transition_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"interrupted_at" timestamp with time zone,
	CONSTRAINT "continuity_state_agent_id_run_id_pk" PRIMARY KEY("agent_id","run_id"),
	CONSTRAINT "continuity_state_state" CHECK ("continuity_state"."state" IN ('RUNNING', 'FINALIZING', 'COMPLETED', 'INTERRUPTED', 'RECOVERY_PENDING')),
	CONSTRAINT "continuity_state_run_id" CHECK (char_length("continuity_state"."run_id") BETWEEN 1 AND 128),
	CONSTRAINT "continuity_state_generation_positive" CHECK ("continuity_state"."generation" >= 1),
	CONSTRAINT "continuity_state_head_limit" CHECK (char_length("continuity_state"."head"::text) <= 262144),
	CONSTRAINT "continuity_state_final_result_limit" CHECK (char_length("continuity_state"."final_result"::text) <= 262144),
	CONSTRAINT "continuity_state_completed_at" CHECK (("continuity_state"."state" = 'COMPLETED') = ("continuity_state"."completed_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX "continuity_state_agent_state_idx" ON "continuity_state" USING btree ("agent_id","state","updated_at");--> statement-breakpoint
CREATE INDEX "continuity_state_agent_created_idx" ON "continuity_state" USING btree ("agent_id","created_at","run_id");--> statement-breakpoint
CREATE INDEX "continuity_state_live_idx" ON "continuity_state" USING btree ("state","owner_id") WHERE "continuity_state"."state" IN ('RUNNING', 'FINALIZING', 'INTERRUPTED');
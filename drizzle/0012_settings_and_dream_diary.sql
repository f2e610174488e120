CREATE TABLE "dream_diary_entries" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"entry_date" date NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"written_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dream_diary_entries_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "dream_diary_entries_title_length" CHECK (char_length("dream_diary_entries"."title") <= 240),
	CONSTRAINT "dream_diary_entries_body_length" CHECK (char_length("dream_diary_entries"."body") BETWEEN 1 AND 24000)
);
--> statement-breakpoint
CREATE TABLE "agent_settings" (
	"agent_id" text NOT NULL,
	"name" text NOT NULL,
	"value" jsonb,
	"secret" text,
	"revision" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "agent_settings_agent_id_name_pk" PRIMARY KEY("agent_id","name"),
	CONSTRAINT "agent_settings_name" CHECK ("agent_settings"."name" ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
	CONSTRAINT "agent_settings_value_size" CHECK ("agent_settings"."value" IS NULL OR octet_length("agent_settings"."value"::text) <= 16000),
	CONSTRAINT "agent_settings_has_content" CHECK ("agent_settings"."value" IS NOT NULL OR "agent_settings"."secret" IS NOT NULL),
	CONSTRAINT "agent_settings_secret_is_ciphertext" CHECK ("agent_settings"."secret" IS NULL OR "agent_settings"."secret" ~ '^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$')
);
--> statement-breakpoint
CREATE TABLE "mcp_connections" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"transport" text NOT NULL,
	"enabled" boolean NOT NULL,
	"description" text NOT NULL,
	"token_secret" text,
	"revision" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "mcp_connections_name" CHECK ("mcp_connections"."name" ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
	CONSTRAINT "mcp_connections_url" CHECK ("mcp_connections"."url" ~ '^https?://' AND char_length("mcp_connections"."url") <= 2000),
	CONSTRAINT "mcp_connections_transport" CHECK ("mcp_connections"."transport" IN ('STREAMABLE_HTTP', 'SSE')),
	CONSTRAINT "mcp_connections_description" CHECK (char_length("mcp_connections"."description") <= 1000),
	CONSTRAINT "mcp_connections_secret_is_ciphertext" CHECK ("mcp_connections"."token_secret" IS NULL OR "mcp_connections"."token_secret" ~ '^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$')
);
--> statement-breakpoint
CREATE TABLE "model_connections" (
	"purpose" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"model" text NOT NULL,
	"timeout_ms" integer NOT NULL,
	"api_key_secret" text,
	"revision" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "model_connections_purpose" CHECK ("model_connections"."purpose" IN ('BRAIN_EMBEDDINGS', 'TIDDLE_PROPOSER')),
	CONSTRAINT "model_connections_url" CHECK ("model_connections"."url" ~ '^https?://' AND char_length("model_connections"."url") <= 2000),
	CONSTRAINT "model_connections_model" CHECK (char_length("model_connections"."model") BETWEEN 1 AND 200),
	CONSTRAINT "model_connections_timeout" CHECK ("model_connections"."timeout_ms" BETWEEN 50 AND 600000),
	CONSTRAINT "model_connections_secret_is_ciphertext" CHECK ("model_connections"."api_key_secret" IS NULL OR "model_connections"."api_key_secret" ~ '^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$')
);
--> statement-breakpoint
ALTER TABLE "dream_diary_entries" ADD CONSTRAINT "dream_diary_entries_agent_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_settings" ADD CONSTRAINT "agent_settings_agent_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dream_diary_entries_date_idx" ON "dream_diary_entries" USING btree ("agent_id","entry_date","created_at");--> statement-breakpoint
CREATE INDEX "dream_diary_entries_expiry_idx" ON "dream_diary_entries" USING btree ("expires_at");
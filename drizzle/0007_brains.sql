CREATE TABLE "albdruck_evidence" (
	"id" text PRIMARY KEY NOT NULL,
	"knowledge_id" text NOT NULL,
	"reference" text NOT NULL,
	"excerpt" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "albdruck_knowledge" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_agent_id" text,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"operator_corrected" boolean DEFAULT false NOT NULL,
	"operator_deleted" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "albdruck_knowledge_status" CHECK ("albdruck_knowledge"."status" IN ('active', 'archived', 'superseded', 'deleted'))
);
--> statement-breakpoint
CREATE TABLE "albdruck_revisions" (
	"knowledge_id" text NOT NULL,
	"revision" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"changed_by" text,
	"changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "albdruck_revisions_knowledge_id_revision_pk" PRIMARY KEY("knowledge_id","revision")
);
--> statement-breakpoint
CREATE TABLE "brain_embeddings" (
	"agent_id" text NOT NULL,
	"memory_id" text NOT NULL,
	"revision" integer NOT NULL,
	"model" text NOT NULL,
	"status" text NOT NULL,
	"dimensions" integer,
	"embedding" real[],
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "brain_embeddings_agent_id_memory_id_pk" PRIMARY KEY("agent_id","memory_id"),
	CONSTRAINT "brain_embeddings_status" CHECK ("brain_embeddings"."status" IN ('indexed', 'failed')),
	CONSTRAINT "brain_embeddings_vector_shape" CHECK ("brain_embeddings"."status" <> 'indexed' OR ("brain_embeddings"."embedding" IS NOT NULL AND cardinality("brain_embeddings"."embedding") = "brain_embeddings"."dimensions"))
);
--> statement-breakpoint
CREATE TABLE "brain_memories" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"source_refs" text[] DEFAULT '{}'::text[] NOT NULL,
	"revision" integer NOT NULL,
	"ownership" text NOT NULL,
	"created_by_kind" text NOT NULL,
	"created_by_id" text NOT NULL,
	"updated_by_kind" text NOT NULL,
	"updated_by_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"label" text,
	"legacy_knowledge_id" text,
	"imported_revision" integer,
	"legacy" jsonb,
	CONSTRAINT "brain_memories_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "brain_memories_title_length" CHECK (char_length("brain_memories"."title") BETWEEN 1 AND 240),
	CONSTRAINT "brain_memories_content_length" CHECK (char_length("brain_memories"."content") <= 24000),
	CONSTRAINT "brain_memories_source_refs_count" CHECK (cardinality("brain_memories"."source_refs") <= 12),
	CONSTRAINT "brain_memories_revision_positive" CHECK ("brain_memories"."revision" >= 1),
	CONSTRAINT "brain_memories_ownership" CHECK ("brain_memories"."ownership" IN ('OPERATOR', 'AGENT'))
);
--> statement-breakpoint
CREATE TABLE "brain_memory_revisions" (
	"agent_id" text NOT NULL,
	"memory_id" text NOT NULL,
	"revision" integer NOT NULL,
	"action" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"source_refs" text[] NOT NULL,
	"ownership" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "brain_memory_revisions_agent_id_memory_id_revision_pk" PRIMARY KEY("agent_id","memory_id","revision"),
	CONSTRAINT "brain_memory_revisions_action" CHECK ("brain_memory_revisions"."action" IN ('created', 'updated', 'removed', 'imported')),
	CONSTRAINT "brain_memory_revisions_title_length" CHECK (char_length("brain_memory_revisions"."title") BETWEEN 1 AND 240),
	CONSTRAINT "brain_memory_revisions_content_length" CHECK (char_length("brain_memory_revisions"."content") <= 24000),
	CONSTRAINT "brain_memory_revisions_source_refs_count" CHECK (cardinality("brain_memory_revisions"."source_refs") <= 12)
);
--> statement-breakpoint
CREATE INDEX "albdruck_evidence_knowledge_idx" ON "albdruck_evidence" USING btree ("knowledge_id","created_at");--> statement-breakpoint
CREATE INDEX "brain_memories_live_newest_idx" ON "brain_memories" USING btree ("agent_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "brain_memories"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "brain_memories_title_trgm_idx" ON "brain_memories" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "brain_memories_content_trgm_idx" ON "brain_memories" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "brain_memories_legacy_idx" ON "brain_memories" USING btree ("agent_id","legacy_knowledge_id") WHERE "brain_memories"."legacy_knowledge_id" IS NOT NULL;
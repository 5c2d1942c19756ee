-- Languages per passage (D82) and typo tolerance (D83). drizzle-kit generated the statements from
-- server/db/schema.ts; the ones marked "custom" were added by hand and must be re-added when this
-- migration is regenerated (its order matters too: a column before what refers to it).
-- custom: pg_trgm indexes the person's vocabulary by trigrams and fuzzystrmatch measures edit
-- distance (typo tolerance). Trusted extensions: the database's owner may create them on
-- PostgreSQL 13 and later; both ship with PostgreSQL and with PGlite's contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;--> statement-breakpoint
CREATE TABLE "retrieval_languages" (
	"user_id" uuid NOT NULL,
	"language" "regconfig" NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"document_count" integer DEFAULT 0 NOT NULL,
	"token_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "retrieval_languages_user_id_language_pk" PRIMARY KEY("user_id","language")
);
--> statement-breakpoint
ALTER TABLE "retrieval_languages" ADD CONSTRAINT "retrieval_languages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "language" "regconfig" DEFAULT 'english'::regconfig NOT NULL;--> statement-breakpoint
-- PostgreSQL 15 cannot change a generated column's expression: the column goes (and its index with
-- it) and comes back, computed for every passage (all of them 'english', as before).
DROP INDEX "document_chunks_user_tsv_idx";--> statement-breakpoint
ALTER TABLE "document_chunks" drop column "tsv";--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector("language", coalesce("heading", '')), 'A') || setweight(to_tsvector("language", "text"), 'B')) STORED NOT NULL;--> statement-breakpoint
-- The owner-and-words index (D50) comes back with the language between them (D82).
CREATE INDEX "document_chunks_user_language_tsv_idx" ON "document_chunks" USING gin ("user_id","language","tsv");--> statement-breakpoint
ALTER TABLE "retrieval_terms" ADD COLUMN "language" "regconfig" DEFAULT 'english'::regconfig NOT NULL;--> statement-breakpoint
ALTER TABLE "retrieval_terms" DROP CONSTRAINT "retrieval_terms_user_id_lexeme_pk";--> statement-breakpoint
ALTER TABLE "retrieval_terms" ADD CONSTRAINT "retrieval_terms_user_id_lexeme_language_pk" PRIMARY KEY("user_id","lexeme","language");--> statement-breakpoint
CREATE INDEX "retrieval_terms_user_trigram_idx" ON "retrieval_terms" USING gin ("user_id","lexeme" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "indexing_lexemes" ADD COLUMN "language" "regconfig" DEFAULT 'english'::regconfig NOT NULL;--> statement-breakpoint
ALTER TABLE "indexing_lexemes" DROP CONSTRAINT "indexing_lexemes_document_id_lexeme_pk";--> statement-breakpoint
ALTER TABLE "indexing_lexemes" ADD CONSTRAINT "indexing_lexemes_document_id_language_lexeme_direction_pk" PRIMARY KEY("document_id","language","lexeme","direction");--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "corrections" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "languages_from" integer;--> statement-breakpoint
CREATE INDEX "documents_languages_pending_idx" ON "documents" USING btree ("id") WHERE "documents"."languages_from" is not null;--> statement-breakpoint
-- custom: every passage so far is English; the language pass re-indexes what is not, from each
-- document's first passage (D82).
INSERT INTO "retrieval_languages" ("user_id", "language", "chunk_count", "document_count", "token_count")
SELECT "user_id", 'english', count(*), count(DISTINCT "document_id"), coalesce(sum("token_count"), 0)
FROM "document_chunks" GROUP BY "user_id";--> statement-breakpoint
UPDATE "documents" d SET "languages_from" = 0
WHERE EXISTS (SELECT 1 FROM "document_chunks" c WHERE c."document_id" = d."id");

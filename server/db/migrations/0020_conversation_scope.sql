-- Before the foreign key that targets it (drizzle-kit writes it last).
ALTER TABLE "library_documents" ADD CONSTRAINT "library_documents_id_user_id_key" UNIQUE("id","user_id");--> statement-breakpoint
CREATE TABLE "chat_scope_documents" (
	"conversation_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "chat_scope_documents_conversation_id_document_id_pk" PRIMARY KEY("conversation_id","document_id")
);
--> statement-breakpoint
ALTER TABLE "document_chunks" DROP CONSTRAINT "document_chunks_document_owner_fk";
--> statement-breakpoint
ALTER TABLE "indexing_lexemes" DROP CONSTRAINT "indexing_lexemes_document_id_documents_id_fk";
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "scoped" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_scope_documents" ADD CONSTRAINT "chat_scope_documents_conversation_owner_fk" FOREIGN KEY ("conversation_id","user_id") REFERENCES "public"."chat_sessions"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_scope_documents" ADD CONSTRAINT "chat_scope_documents_document_owner_fk" FOREIGN KEY ("document_id","user_id") REFERENCES "public"."library_documents"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_scope_documents_document_id_idx" ON "chat_scope_documents" USING btree ("document_id");--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_document_owner_fk" FOREIGN KEY ("document_id","user_id") REFERENCES "public"."documents"("id","user_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "indexing_lexemes" ADD CONSTRAINT "indexing_lexemes_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
-- Custom SQL (D70, one id per document), to re-add if this migration is regenerated: a library
-- document's passages take the library row's id (its chunks follow through the ON UPDATE CASCADE
-- above), and the sources of stored answers are rewritten to it first, so a citation, a scope and
-- the library name the same document.
UPDATE "chat_messages" m SET "sources" = (
  SELECT jsonb_agg(
    CASE WHEN l.id IS NULL THEN e.value ELSE jsonb_set(e.value, '{documentId}', to_jsonb(l.id::text)) END
    ORDER BY e.ordinality)
  FROM jsonb_array_elements(m.sources) WITH ORDINALITY AS e(value, ordinality)
  LEFT JOIN "documents" d ON d.id::text = e.value->>'documentId' AND d.user_id = m.user_id
  LEFT JOIN "library_documents" l ON l.user_id = d.user_id AND l.source = d.source AND l.external_id = d.external_id
) WHERE m.is_user = false AND jsonb_array_length(m.sources) > 0;--> statement-breakpoint
-- The versions an answer keeps (D93) cite documents too: rewritten the same way.
UPDATE "chat_answer_versions" m SET "sources" = (
  SELECT jsonb_agg(
    CASE WHEN l.id IS NULL THEN e.value ELSE jsonb_set(e.value, '{documentId}', to_jsonb(l.id::text)) END
    ORDER BY e.ordinality)
  FROM jsonb_array_elements(m.sources) WITH ORDINALITY AS e(value, ordinality)
  LEFT JOIN "documents" d ON d.id::text = e.value->>'documentId' AND d.user_id = m.user_id
  LEFT JOIN "library_documents" l ON l.user_id = d.user_id AND l.source = d.source AND l.external_id = d.external_id
) WHERE jsonb_array_length(m.sources) > 0;--> statement-breakpoint
UPDATE "documents" d SET "id" = l.id FROM "library_documents" l
WHERE l.user_id = d.user_id AND l.source = d.source AND l.external_id = d.external_id AND d.id <> l.id;

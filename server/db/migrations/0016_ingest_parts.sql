CREATE TABLE "indexing_lexemes" (
	"document_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"direction" smallint NOT NULL,
	CONSTRAINT "indexing_lexemes_document_id_lexeme_pk" PRIMARY KEY("document_id","lexeme")
);
--> statement-breakpoint
ALTER TABLE "indexing_lexemes" ADD CONSTRAINT "indexing_lexemes_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;
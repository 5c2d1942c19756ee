CREATE TABLE "library_uploads" (
	"library_document_id" uuid PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "library_uploads" ADD CONSTRAINT "library_uploads_library_document_id_library_documents_id_fk" FOREIGN KEY ("library_document_id") REFERENCES "public"."library_documents"("id") ON DELETE cascade ON UPDATE no action;
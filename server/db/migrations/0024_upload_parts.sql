-- D104: an uploaded file's bytes in parts of 256 KB, so that no statement carries a whole 5 MB
-- file (on embedded PGlite one such parameter held the server's thread for seconds). A file
-- stored before is its only part, 0. (drizzle-kit also proposed dropping and re-creating
-- document_chunks_owner_words_idx, an expression index it cannot compare: left out, it is 0022's.)
ALTER TABLE "library_uploads" ADD COLUMN "part" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "library_uploads" DROP CONSTRAINT "library_uploads_pkey";--> statement-breakpoint
ALTER TABLE "library_uploads" ADD CONSTRAINT "library_uploads_library_document_id_part_pk" PRIMARY KEY("library_document_id","part");

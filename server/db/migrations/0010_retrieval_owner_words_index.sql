DROP INDEX "document_chunks_tsv_idx";--> statement-breakpoint
CREATE INDEX "document_chunks_user_tsv_idx" ON "document_chunks" USING gin ("user_id","tsv");
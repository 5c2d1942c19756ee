-- D94: a GIN index with fast update collects new entries in a pending list and moves them into
-- the index when the list passes gin_pending_list_limit (4 MB by default), in whichever statement
-- crosses it. On embedded PGlite that statement holds the server's thread for 0.2-0.75 s while
-- another person waits; a list of 256 kB is moved in a few milliseconds, as often as needed.
ALTER INDEX "document_chunks_user_language_tsv_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "retrieval_terms_user_trigram_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "chat_messages_content_fts_idx" SET (gin_pending_list_limit = 256);

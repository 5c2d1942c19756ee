-- BM25 statistics for the documents indexed before they existed (0003): passage and document
-- lengths in whitespace-separated words (as DocumentsRepository counts them), and each user's
-- per-lexeme chunk and document counts and totals. A no-op on an empty database.
UPDATE "document_chunks" SET "token_count" = coalesce(array_length(array_remove(regexp_split_to_array(coalesce("heading", '') || ' ' || "text", '\s+'), ''), 1), 0);
--> statement-breakpoint
UPDATE "documents" d SET "token_count" = coalesce((SELECT sum(c."token_count") FROM "document_chunks" c WHERE c."document_id" = d."id"), 0);
--> statement-breakpoint
INSERT INTO "retrieval_terms" ("user_id", "lexeme", "chunk_count", "document_count")
SELECT c."user_id", t.lexeme, count(*), count(DISTINCT c."document_id")
FROM "document_chunks" c, unnest(c."tsv") AS t
GROUP BY c."user_id", t.lexeme;
--> statement-breakpoint
INSERT INTO "retrieval_totals" ("user_id", "chunk_count", "document_count", "token_count")
SELECT d."user_id", coalesce(sum(n.chunks), 0), count(*), coalesce(sum(d."token_count"), 0)
FROM "documents" d
LEFT JOIN (SELECT "document_id", count(*) AS chunks FROM "document_chunks" GROUP BY "document_id") n ON n."document_id" = d."id"
GROUP BY d."user_id";

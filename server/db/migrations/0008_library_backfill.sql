-- Documents indexed before the library existed become ready library rows, so the first sync after
-- the upgrade finds them unchanged instead of reading every file again.
INSERT INTO "library_documents" ("user_id", "source", "external_id", "name", "mime_type", "web_view_link", "version", "modified_time", "status", "chunks", "created_at", "updated_at")
SELECT d."user_id", d."source", d."external_id", d."name", d."mime_type", d."link", d."version", d."modified_time", 'ready',
  (SELECT count(*)::integer FROM "document_chunks" c WHERE c."document_id" = d."id"), d."created_at", d."updated_at"
FROM "documents" d
ON CONFLICT DO NOTHING;

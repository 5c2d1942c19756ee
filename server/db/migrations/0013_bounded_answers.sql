DROP INDEX "chat_messages_content_fts_idx";--> statement-breakpoint
CREATE INDEX "chat_sessions_answering_idx" ON "chat_sessions" USING btree ("user_id") WHERE "chat_sessions"."answering_until" is not null;--> statement-breakpoint
CREATE INDEX "chat_messages_content_fts_idx" ON "chat_messages" USING gin (to_tsvector('english', left("content", 65536)));
ALTER TABLE "chat_messages" ADD COLUMN "stopped" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "answering_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "chat_messages_content_fts_idx" ON "chat_messages" USING gin (to_tsvector('english', "content"));
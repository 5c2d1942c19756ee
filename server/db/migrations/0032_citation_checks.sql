ALTER TABLE "chat_answer_versions" ADD COLUMN "checks" jsonb;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "checks" jsonb;
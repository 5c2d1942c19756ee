CREATE TABLE "chat_answer_versions" (
	"message_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"content" text NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"corrections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stopped" boolean DEFAULT false NOT NULL,
	"feedback" text,
	"feedback_reason" text,
	"feedback_note" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_answer_versions_message_id_position_pk" PRIMARY KEY("message_id","position"),
	CONSTRAINT "chat_answer_versions_position_check" CHECK ("chat_answer_versions"."position" between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "feedback_reason" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "feedback_note" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "version_count" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_answer_versions" ADD CONSTRAINT "chat_answer_versions_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_feedback_reason_check" CHECK ("chat_messages"."feedback_reason" in ('incorrect', 'unsupported', 'incomplete', 'other'));--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_feedback_note_check" CHECK (char_length("chat_messages"."feedback_note") <= 500);--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_reason_needs_dislike_check" CHECK (("chat_messages"."feedback_reason" is null and "chat_messages"."feedback_note" is null) or "chat_messages"."feedback" = 'dislike');--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_version_check" CHECK ("chat_messages"."version" between 1 and "chat_messages"."version_count" and "chat_messages"."version_count" <= 10);
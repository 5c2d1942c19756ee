CREATE TABLE "assistant_publications" (
	"assistant_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"public_id" text,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"public_page" boolean DEFAULT true NOT NULL,
	"allow_indexing" boolean DEFAULT false NOT NULL,
	"show_source_names" boolean DEFAULT true NOT NULL,
	"busy_message" text NOT NULL,
	"privacy_notice" text DEFAULT '' NOT NULL,
	"budgets" jsonb NOT NULL,
	"require_challenge" boolean DEFAULT false NOT NULL,
	"retention_days" integer NOT NULL,
	"identity_secret" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assistant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"visitor_key" text NOT NULL,
	"signed" boolean DEFAULT false NOT NULL,
	"visitor_name" text,
	"visitor_email" text,
	"first_question" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"is_user" boolean NOT NULL,
	"content" text NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fell_back" boolean DEFAULT false NOT NULL,
	"found_nothing" boolean DEFAULT false NOT NULL,
	"feedback" text,
	"tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visitor_messages_feedback_check" CHECK ("visitor_messages"."feedback" in ('like', 'dislike'))
);
--> statement-breakpoint
ALTER TABLE "assistant_publications" ADD CONSTRAINT "assistant_publications_assistant_owner_fk" FOREIGN KEY ("assistant_id","user_id") REFERENCES "public"."assistants"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_conversations" ADD CONSTRAINT "visitor_conversations_assistant_owner_fk" FOREIGN KEY ("assistant_id","user_id") REFERENCES "public"."assistants"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_messages" ADD CONSTRAINT "visitor_messages_conversation_id_visitor_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."visitor_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assistant_publications_public_id_key" ON "assistant_publications" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "visitor_conversations_visitor_idx" ON "visitor_conversations" USING btree ("assistant_id","visitor_key","updated_at");--> statement-breakpoint
CREATE INDEX "visitor_conversations_assistant_created_idx" ON "visitor_conversations" USING btree ("assistant_id","created_at");--> statement-breakpoint
CREATE INDEX "visitor_messages_conversation_idx" ON "visitor_messages" USING btree ("conversation_id","created_at");
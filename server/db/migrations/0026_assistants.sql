-- Issue 36 (D113): assistants, their knowledge (chosen library documents, followed Drive folders)
-- and the conversation's link to one, which keeps the assistant's id and name after it is deleted.
CREATE TABLE "assistant_documents" (
	"assistant_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "assistant_documents_assistant_id_document_id_pk" PRIMARY KEY("assistant_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "assistant_folders" (
	"assistant_id" uuid NOT NULL,
	"folder_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "assistant_folders_assistant_id_folder_id_pk" PRIMARY KEY("assistant_id","folder_id")
);
--> statement-breakpoint
CREATE TABLE "assistants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"starter_questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answer_policy" text NOT NULL,
	"fallback_answer" text NOT NULL,
	"temperature" double precision,
	"max_answer_tokens" integer,
	"model" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assistants_id_user_id_key" UNIQUE("id","user_id"),
	CONSTRAINT "assistants_answer_policy_check" CHECK ("assistants"."answer_policy" in ('documents-only', 'documents-first'))
);
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "assistant_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "assistant_name" text;--> statement-breakpoint
ALTER TABLE "assistant_documents" ADD CONSTRAINT "assistant_documents_assistant_owner_fk" FOREIGN KEY ("assistant_id","user_id") REFERENCES "public"."assistants"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_documents" ADD CONSTRAINT "assistant_documents_document_owner_fk" FOREIGN KEY ("document_id","user_id") REFERENCES "public"."library_documents"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_folders" ADD CONSTRAINT "assistant_folders_assistant_owner_fk" FOREIGN KEY ("assistant_id","user_id") REFERENCES "public"."assistants"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistants" ADD CONSTRAINT "assistants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_documents_document_id_idx" ON "assistant_documents" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "assistants_user_id_updated_at_idx" ON "assistants" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "chat_sessions_assistant_id_idx" ON "chat_sessions" USING btree ("assistant_id") WHERE "chat_sessions"."assistant_id" is not null;

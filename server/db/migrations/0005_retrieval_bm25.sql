CREATE TABLE "retrieval_terms" (
	"user_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"chunk_count" integer NOT NULL,
	"document_count" integer NOT NULL,
	CONSTRAINT "retrieval_terms_user_id_lexeme_pk" PRIMARY KEY("user_id","lexeme")
);
--> statement-breakpoint
CREATE TABLE "retrieval_totals" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"document_count" integer DEFAULT 0 NOT NULL,
	"token_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "token_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "token_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "retrieval_terms" ADD CONSTRAINT "retrieval_terms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retrieval_totals" ADD CONSTRAINT "retrieval_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
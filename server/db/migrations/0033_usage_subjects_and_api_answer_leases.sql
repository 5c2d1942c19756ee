CREATE TABLE "api_answer_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_subject_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"answers" integer DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_subject_days_user_id_day_kind_subject_id_pk" PRIMARY KEY("user_id","day","kind","subject_id"),
	CONSTRAINT "usage_subject_days_kind_check" CHECK ("usage_subject_days"."kind" in ('key', 'assistant'))
);
--> statement-breakpoint
ALTER TABLE "api_answer_leases" ADD CONSTRAINT "api_answer_leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_subject_days" ADD CONSTRAINT "usage_subject_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_answer_leases_user_id_idx" ON "api_answer_leases" USING btree ("user_id");
CREATE TABLE "published_answer_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assistant_id" uuid NOT NULL,
	"visitor_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "published_counters" (
	"assistant_id" uuid NOT NULL,
	"visitor_hash" text NOT NULL,
	"period" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"answers" integer DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "published_counters_assistant_id_visitor_hash_period_window_start_pk" PRIMARY KEY("assistant_id","visitor_hash","period","window_start"),
	CONSTRAINT "published_counters_period_check" CHECK ("published_counters"."period" in ('day', 'hour'))
);
--> statement-breakpoint
CREATE TABLE "usage_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"answers" integer DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_days_user_id_day_source_pk" PRIMARY KEY("user_id","day","source"),
	CONSTRAINT "usage_days_source_check" CHECK ("usage_days"."source" in ('app', 'published', 'api'))
);
--> statement-breakpoint
CREATE TABLE "used_challenges" (
	"signature_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "published_answer_leases" ADD CONSTRAINT "published_answer_leases_assistant_id_assistants_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."assistants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_counters" ADD CONSTRAINT "published_counters_assistant_id_assistants_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."assistants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_days" ADD CONSTRAINT "usage_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "published_answer_leases_assistant_expires_idx" ON "published_answer_leases" USING btree ("assistant_id","expires_at");--> statement-breakpoint
CREATE INDEX "published_answer_leases_expires_at_idx" ON "published_answer_leases" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "published_counters_window_start_idx" ON "published_counters" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "used_challenges_expires_at_idx" ON "used_challenges" USING btree ("expires_at");

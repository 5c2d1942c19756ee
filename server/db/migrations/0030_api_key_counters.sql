CREATE TABLE "api_key_counters" (
	"key_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"period" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "api_key_counters_key_id_period_window_start_pk" PRIMARY KEY("key_id","period","window_start"),
	CONSTRAINT "api_key_counters_period_check" CHECK ("api_key_counters"."period" in ('minute', 'day'))
);
--> statement-breakpoint
ALTER TABLE "api_key_counters" ADD CONSTRAINT "api_key_counters_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_counters" ADD CONSTRAINT "api_key_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_counters_window_start_idx" ON "api_key_counters" USING btree ("window_start");
-- D115: the connected Drive's folders and which folders each Drive item sits in, so an
-- assistant's folder knowledge is a query at answer time (issue 36). Numbered 0026 beside the
-- assistants' 0025, made in parallel; the snapshot is drizzle-kit's.
CREATE TABLE "drive_file_parents" (
	"user_id" uuid NOT NULL,
	"file_id" text NOT NULL,
	"folder_id" text NOT NULL,
	"target_id" text NOT NULL,
	CONSTRAINT "drive_file_parents_user_id_file_id_folder_id_pk" PRIMARY KEY("user_id","file_id","folder_id")
);
--> statement-breakpoint
CREATE TABLE "drive_folders" (
	"user_id" uuid NOT NULL,
	"folder_id" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" text,
	"missing" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drive_folders_user_id_folder_id_pk" PRIMARY KEY("user_id","folder_id")
);
--> statement-breakpoint
ALTER TABLE "drive_file_parents" ADD CONSTRAINT "drive_file_parents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_folders" ADD CONSTRAINT "drive_folders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drive_file_parents_user_id_folder_id_idx" ON "drive_file_parents" USING btree ("user_id","folder_id");--> statement-breakpoint
CREATE INDEX "drive_folders_user_id_parent_id_idx" ON "drive_folders" USING btree ("user_id","parent_id");
ALTER TABLE "drive_syncs" ADD COLUMN "page_token" text;--> statement-breakpoint
ALTER TABLE "library_documents" ADD COLUMN "via_shortcut" text;
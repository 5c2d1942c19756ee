-- D99: when an account's address was shown to be its owner's. drizzle-kit also asked to drop and
-- re-create document_chunks_owner_words_idx (0022's snapshot held the index's older expression;
-- this one holds the right one): left out, the index is as 0022 made it.
ALTER TABLE "users" ADD COLUMN "email_proven_at" timestamp with time zone;--> statement-breakpoint
-- Accounts that exist already count as proven only where the database holds the proof: an
-- account without a password was made by Sign in with Google (Google verified the address), and
-- a mailed link that was used (a reset or a confirmation, kept until it expires) came through
-- the mailbox. Every other account counts as unproven: a password account in open sign-up, or one
-- confirmed longer ago than its link is kept, cannot be told from one an attacker registered.
UPDATE "users" SET "email_proven_at" = "created_at" WHERE "password_hash" IS NULL;--> statement-breakpoint
UPDATE "users" SET "email_proven_at" = "used"."at"
FROM (
  SELECT "user_id", max("used_at") AS "at" FROM "account_tokens" WHERE "used_at" IS NOT NULL GROUP BY "user_id"
) AS "used"
WHERE "used"."user_id" = "users"."id" AND "users"."email_proven_at" IS NULL;

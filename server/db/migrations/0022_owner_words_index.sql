-- D95: the passages' word index keyed by owner. drizzle-kit generated the two index statements from
-- server/db/schema.ts; the function (marked "custom") was added by hand and must be re-added, first,
-- when this migration is regenerated.
-- custom: a passage's lexemes, each prefixed with the last 8 hex digits of its owner's id and the
-- first three letters of its language ("eng", "ger", "fre": unique among the 30 text search
-- configurations). The multi-column index (owner, language, words) it replaces kept a key per
-- column, so a common word's posting list held every person's passages and a search intersected
-- it with its owner's; keyed this way a word's posting list holds one person's passages of one
-- language. Two people whose ids end alike (among 1,000 people, a chance of about 1 in 8,600 that
-- any two do) share keys: a search still reads only its owner's passages (it filters by user_id
-- and language as well), it reads a little more. Positions and weights are not kept: the index
-- answers which passages hold a word, the ranking reads the passage's own tsv. A configuration's
-- name does not depend on the search path (PostgreSQL's own are always visible), so the function
-- is as immutable as an index needs. The lexemes are joined and split on \x01, which the parser
-- never puts in a word (a set-returning form cost 3-4 times as much: ~90 us a passage against
-- ~20). PL/pgSQL, so the planner does not inline it and keeps its cost, ten times the default: a
-- plan then lets the index answer it rather than compute it for every passage of a person.
CREATE FUNCTION owner_words(owner uuid, language regconfig, words tsvector) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000
  AS $$
declare
  k text := right(owner::text, 8) || left(language::text, 3);
begin
  if length(words) = 0 then
    return words;
  end if;
  return array_to_tsvector(string_to_array(k || array_to_string(tsvector_to_array(words), E'\x01' || k), E'\x01'));
end
$$;--> statement-breakpoint
CREATE INDEX "document_chunks_owner_words_idx" ON "document_chunks" USING gin (owner_words("user_id", "language", "tsv")) WITH (gin_pending_list_limit=256);--> statement-breakpoint
DROP INDEX "document_chunks_user_language_tsv_idx";

/**
 * The extensions every embedded database loads: pgvector (hybrid retrieval, D19), btree_gin,
 * which lets one GIN index hold a passage's owner beside its words (D50), so a search
 * reads only the searching person's postings, and pg_trgm and fuzzystrmatch, which find the words
 * of the person's vocabulary nearest a misspelled one (typo tolerance, D83).
 */
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { vector } from '@electric-sql/pglite-pgvector'

export const PGLITE_EXTENSIONS = { vector, btree_gin, pg_trgm, fuzzystrmatch }

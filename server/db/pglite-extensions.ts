/**
 * The extensions every embedded database loads: pgvector (hybrid retrieval, D19) and btree_gin,
 * which lets one GIN index hold a passage's owner beside its words (D50), so a search
 * reads only the searching person's postings.
 */
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { vector } from '@electric-sql/pglite-pgvector'

export const PGLITE_EXTENSIONS = { vector, btree_gin }

-- Custom SQL migration file, put your code below! --
-- btree_gin lets a GIN index hold a uuid (the passage's owner) beside the tsvector, so a search
-- reads only the searching person's postings (README D50). A trusted extension: the database's
-- owner may create it on PostgreSQL 13 and later; it ships with PostgreSQL and with PGlite.
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- Trigram matching for case-insensitive substring search (Brains list, working memory).
-- pg_trgm is a trusted contrib extension; the embedded database loads it from
-- @electric-sql/pglite/contrib/pg_trgm.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

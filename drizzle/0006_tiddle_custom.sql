-- Every residue excerpt within its bound (role known, text 1 to 1,000 characters, at most 8):
-- a CHECK cannot hold a subquery, a function can.
CREATE OR REPLACE FUNCTION tiddle_excerpts_within_bounds(excerpts jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_typeof(excerpts) = 'array'
     AND jsonb_array_length(excerpts) <= 8
     AND NOT EXISTS (
       SELECT 1 FROM jsonb_array_elements(excerpts) AS e(item)
        WHERE jsonb_typeof(e.item) <> 'object'
           OR jsonb_typeof(e.item -> 'text') IS DISTINCT FROM 'string'
           OR char_length(e.item ->> 'text') NOT BETWEEN 1 AND 1000
           OR (e.item ->> 'role') IS NULL
           OR (e.item ->> 'role') NOT IN ('user', 'assistant', 'tool', 'system'))
$$;
--> statement-breakpoint
ALTER TABLE "tiddle_entries" ADD CONSTRAINT "tiddle_entries_excerpts_each" CHECK (tiddle_excerpts_within_bounds("excerpts"));

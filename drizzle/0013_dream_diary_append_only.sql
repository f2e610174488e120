-- The Dream diary is append-only: no statement may change an entry, and only a retention sweep
-- (which sets burrow.dream_diary_retention for its own transaction) may remove one.
CREATE FUNCTION dream_diary_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('burrow.dream_diary_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'dream diary entries are append-only (% refused)', TG_OP USING ERRCODE = '23514', CONSTRAINT = 'dream_diary_entries_append_only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER dream_diary_entries_append_only BEFORE UPDATE OR DELETE ON dream_diary_entries
  FOR EACH ROW EXECUTE FUNCTION dream_diary_entries_append_only();

import type { Migration } from './types.js'

/**
 * The revision of the configuration clients are served: a counter bumped by every event-log row
 * at its transaction's commit (a deferred trigger), so revisions follow commit order. The
 * largest event id does not: with two writers, id 11 can commit before id 10, and a reader that
 * saw 11 without 10 would see 11 again after 10 commits. The client API caches its answers per
 * revision (routes/client/features.ts); every change of what it serves writes an event.
 */
export const migration: Migration = {
  version: 8,
  name: 'revision',
  sql: `
CREATE TABLE revision (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  value bigint NOT NULL
);
INSERT INTO revision (id, value) VALUES (true, 0);

-- The row lock taken at commit orders the bumps: a writer committing later reads the value the
-- earlier one committed (READ COMMITTED re-reads the updated row) and adds to it.
CREATE FUNCTION bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE revision SET value = value + 1;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER events_bump_revision AFTER INSERT ON events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_revision();
`,
}

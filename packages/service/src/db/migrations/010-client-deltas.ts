import type { Migration } from './types.js'

/**
 * Deltas and streaming for clients (`/api/client/delta`, `/api/client/streaming`): each event-log
 * row gets the revision its commit bumped to (migration 008), so "what changed after revision r"
 * is one indexed query, answered alike by every service instance and after a restart. Rows
 * written before this migration have none: `delta_floor` is the revision they end at, and a
 * client behind it is sent a hydration. Each bump also notifies channel `vexil_revision` at
 * commit, so every instance's open streams hear of a change made through any of them.
 */
export const migration: Migration = {
  version: 10,
  name: 'client-deltas',
  sql: `
ALTER TABLE events ADD COLUMN revision bigint;
CREATE INDEX events_revision_idx ON events (revision) WHERE revision IS NOT NULL;
ALTER TABLE revision ADD COLUMN delta_floor bigint NOT NULL DEFAULT 0;
UPDATE revision SET delta_floor = value;

CREATE OR REPLACE FUNCTION bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next bigint;
BEGIN
  UPDATE revision SET value = value + 1 RETURNING value INTO next;
  UPDATE events SET revision = next WHERE id = NEW.id;
  PERFORM pg_notify('vexil_revision', '');
  RETURN NULL;
END
$$;
`,
}

import type { Migration } from './types.js'

/**
 * What made a change that no person or token made: the action set whose run wrote the event, the
 * signal that triggered the run and its endpoint, so the history links a flag's change to its
 * cause. Nulls for every other change; no foreign keys, as the log outlives what it names. The created_by index serves the event search's actor filter.
 */
export const migration: Migration = {
  version: 14,
  name: 'event-origins',
  sql: `
ALTER TABLE events ADD COLUMN action_set_id integer;
ALTER TABLE events ADD COLUMN signal_id bigint;
ALTER TABLE events ADD COLUMN signal_endpoint_id integer;
CREATE INDEX events_created_by_idx ON events (created_by);
`,
}

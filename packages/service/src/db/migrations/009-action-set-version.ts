import type { Migration } from './types.js'

/**
 * A version per action set, bumped by every update, so the action runner compiles a set's
 * filters once per version and knows when a cached compilation is stale (also when another
 * service instance made the change).
 */
export const migration: Migration = {
  version: 9,
  name: 'action-set-version',
  sql: `
ALTER TABLE action_sets ADD COLUMN version integer NOT NULL DEFAULT 1;
`,
}

import type { Migration } from './types.js'

/**
 * The contexts the admin playground was recently asked to evaluate, shared by every service
 * instance on the database. A context is kept once, as canonical JSON (keys sorted), keyed by
 * that text's SHA-256 (a 4 KB text is past what a btree index entry holds); `used` orders them
 * newest first, drawn from a sequence so two uses in one millisecond, or on two instances, still
 * have an order. Stored as text, not jsonb: jsonb refuses `\u0000`, which a context may hold.
 */
export const migration: Migration = {
  version: 11,
  name: 'playground-contexts',
  sql: `
CREATE SEQUENCE playground_context_use;
CREATE TABLE playground_contexts (
  key text PRIMARY KEY,
  context text NOT NULL,
  last_used_at timestamptz NOT NULL,
  used bigint NOT NULL DEFAULT nextval('playground_context_use')
);
CREATE INDEX playground_contexts_used_idx ON playground_contexts (used DESC);
`,
}

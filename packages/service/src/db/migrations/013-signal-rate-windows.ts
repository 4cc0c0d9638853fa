import type { Migration } from './types.js'

/**
 * The signal rate limit's current window per endpoint, in the database so that every service
 * instance on it counts against one limit (it was per process). One row per endpoint: a request
 * outside the window replaces it in the same upsert, so old windows never pile up, and the row
 * goes with its endpoint.
 */
export const migration: Migration = {
  version: 13,
  name: 'signal-rate-windows',
  sql: `
CREATE TABLE signal_rate_windows (
  endpoint_id integer PRIMARY KEY REFERENCES signal_endpoints(id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL,
  count integer NOT NULL
);
`,
}

import type { Migration } from './types.js'

/**
 * Signal endpoints, their tokens (SHA-256 hashes only), received signals (the `announced =
 * false` rows are the action runner's queue), action sets with their ordered actions, and the
 * record of every action-set run. Table and column names follow Unleash's migrations.
 */
export const migration: Migration = {
  version: 4,
  name: 'signals',
  sql: `
CREATE TABLE signal_endpoints (
  id serial PRIMARY KEY,
  name text NOT NULL,
  description text,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  created_by_user_id integer
);
CREATE UNIQUE INDEX signal_endpoints_name_idx ON signal_endpoints (name);

CREATE TABLE signal_endpoint_tokens (
  id serial PRIMARY KEY,
  signal_endpoint_id integer NOT NULL REFERENCES signal_endpoints(id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  created_by_user_id integer
);
CREATE INDEX signal_endpoint_tokens_endpoint_idx ON signal_endpoint_tokens (signal_endpoint_id);

CREATE TABLE signals (
  id bigserial PRIMARY KEY,
  source text NOT NULL DEFAULT 'signal-endpoint',
  source_id integer NOT NULL REFERENCES signal_endpoints(id) ON DELETE CASCADE,
  payload jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  created_by_source_token_id integer REFERENCES signal_endpoint_tokens(id) ON DELETE SET NULL,
  announced boolean NOT NULL DEFAULT false
);
CREATE INDEX signals_source_idx ON signals (source, source_id, id);
CREATE INDEX signals_token_idx ON signals (created_by_source_token_id);
CREATE INDEX signals_created_at_idx ON signals (created_at);
-- The runner's queue: unprocessed signals in arrival order.
CREATE INDEX signals_unannounced_idx ON signals (id) WHERE announced = false;

CREATE TABLE action_sets (
  id serial PRIMARY KEY,
  project text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  enabled boolean NOT NULL DEFAULT true,
  actor_id integer NOT NULL REFERENCES users(id),
  source text NOT NULL DEFAULT 'signal-endpoint',
  source_id integer NOT NULL REFERENCES signal_endpoints(id),
  payload jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  created_by_user_id integer
);
CREATE UNIQUE INDEX action_sets_project_name_idx ON action_sets (project, name);
CREATE INDEX action_sets_source_idx ON action_sets (source, source_id);

CREATE TABLE actions (
  id serial PRIMARY KEY,
  action_set_id integer NOT NULL REFERENCES action_sets(id) ON DELETE CASCADE,
  sort_order integer NOT NULL,
  action text NOT NULL,
  execution_params jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  created_by_user_id integer
);
CREATE INDEX actions_action_set_idx ON actions (action_set_id, sort_order);

-- One row per run: the signal and the action set as they were, each action with its state.
CREATE TABLE action_set_events (
  id bigserial PRIMARY KEY,
  action_set_id integer NOT NULL REFERENCES action_sets(id) ON DELETE CASCADE,
  signal_id bigint NOT NULL,
  created_at timestamptz NOT NULL,
  state text NOT NULL,
  signal jsonb NOT NULL,
  action_set jsonb NOT NULL
);
CREATE INDEX action_set_events_action_set_idx ON action_set_events (action_set_id, id);
`,
}

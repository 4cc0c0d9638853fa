import type { Migration } from './types.js'

/** The event log, registered client applications and hourly client metrics. */
export const migration: Migration = {
  version: 3,
  name: 'events-and-metrics',
  sql: `
CREATE TABLE events (
  id bigserial PRIMARY KEY,
  type text NOT NULL,
  created_by text NOT NULL,
  created_by_user_id integer,
  created_at timestamptz NOT NULL,
  project text,
  feature_name text,
  environment text,
  data jsonb,
  pre_data jsonb,
  tags jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX events_created_at_idx ON events (created_at);
CREATE INDEX events_feature_name_idx ON events (feature_name);
CREATE INDEX events_project_idx ON events (project);
CREATE INDEX events_environment_idx ON events (environment);

CREATE TABLE client_applications (
  app_name text PRIMARY KEY,
  description text,
  url text,
  color text,
  icon text,
  strategies jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  seen_at timestamptz
);

CREATE TABLE client_instances (
  app_name text NOT NULL,
  instance_id text NOT NULL,
  environment text NOT NULL,
  sdk_version text,
  client_ip text,
  strategies jsonb NOT NULL DEFAULT '[]',
  started timestamptz,
  "interval" integer,
  created_at timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (app_name, instance_id, environment)
);

-- One row per (feature, app, environment, hour); posts add to it (upsert), never replace.
CREATE TABLE client_metrics_hourly (
  feature_name text NOT NULL,
  app_name text NOT NULL,
  environment text NOT NULL,
  timestamp timestamptz NOT NULL,
  yes bigint NOT NULL DEFAULT 0,
  no bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (feature_name, app_name, environment, timestamp)
);
CREATE INDEX client_metrics_hourly_timestamp_idx ON client_metrics_hourly (timestamp);

CREATE TABLE client_metrics_hourly_variants (
  feature_name text NOT NULL,
  app_name text NOT NULL,
  environment text NOT NULL,
  timestamp timestamptz NOT NULL,
  variant text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (feature_name, app_name, environment, timestamp, variant)
);
`,
}

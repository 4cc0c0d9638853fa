import type { Migration } from './types.js'

/**
 * Instance insights (issue 7): the snapshots a daily scheduler takes, so trends survive
 * restarts. Every table has a natural unique key and is written by upsert, so a day's second
 * run replaces its rows and several service instances on one database never duplicate one.
 * No foreign keys to projects or environments: trends outlive what they describe.
 */
export const migration: Migration = {
  version: 5,
  name: 'insights',
  sql: `
-- One row per UTC day: the users at the day's snapshot. A day's row marks its snapshot taken.
CREATE TABLE user_trends (
  day date PRIMARY KEY,
  total_users integer NOT NULL,
  active_users integer NOT NULL,
  taken_at timestamptz NOT NULL
);

-- One row per UTC day and project: its flags at the day's snapshot (projectFlagTrends by week,
-- flagTrends summed by day). time_to_production is null when no flag reached production lately.
CREATE TABLE project_flag_trends (
  day date NOT NULL,
  project text NOT NULL,
  total_flags integer NOT NULL,
  stale_flags integer NOT NULL,
  potentially_stale_flags integer NOT NULL,
  time_to_production double precision,
  users integer NOT NULL,
  taken_at timestamptz NOT NULL,
  PRIMARY KEY (day, project)
);

-- One row per ISO week (its Monday) and project: a summary of the hourly client metrics.
-- through: the last day the summary covers (the week's Sunday once the week is over).
CREATE TABLE project_metrics_trends (
  week_start date NOT NULL,
  project text NOT NULL,
  total_yes bigint NOT NULL,
  total_no bigint NOT NULL,
  total_apps integer NOT NULL,
  total_flags integer NOT NULL,
  total_environments integer NOT NULL,
  through date NOT NULL,
  PRIMARY KEY (week_start, project)
);

-- One row per ISO week (its Monday) and environment type: configuration updates in the event log.
CREATE TABLE environment_type_trends (
  week_start date NOT NULL,
  environment_type text NOT NULL,
  total_updates integer NOT NULL,
  through date NOT NULL,
  PRIMARY KEY (week_start, environment_type)
);
CREATE INDEX project_metrics_trends_through_idx ON project_metrics_trends (through);
CREATE INDEX environment_type_trends_through_idx ON environment_type_trends (through);
`,
}

import type { Migration } from './types.js'

/** Projects, environments and everything a flag is made of. Seeds what Unleash starts with. */
export const migration: Migration = {
  version: 1,
  name: 'flags',
  sql: `
CREATE TABLE projects (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text,
  mode text NOT NULL DEFAULT 'open',
  default_stickiness text NOT NULL DEFAULT 'default',
  created_at timestamptz NOT NULL,
  updated_at timestamptz
);

CREATE TABLE environments (
  name text PRIMARY KEY,
  type text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  protected boolean NOT NULL DEFAULT false,
  sort_order integer NOT NULL DEFAULT 9999,
  created_at timestamptz NOT NULL
);

CREATE TABLE project_environments (
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment_name text NOT NULL REFERENCES environments(name) ON DELETE CASCADE,
  PRIMARY KEY (project_id, environment_name)
);

-- lifetime_days drives "potentially stale" in insights (Unleash's feature_types).
CREATE TABLE feature_types (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL,
  lifetime_days integer
);

CREATE TABLE features (
  name text PRIMARY KEY,
  project text NOT NULL REFERENCES projects(id),
  type text NOT NULL DEFAULT 'release',
  description text,
  impression_data boolean NOT NULL DEFAULT false,
  stale boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  archived_at timestamptz,
  created_by_user_id integer,
  last_seen_at timestamptz
);
CREATE INDEX features_project_idx ON features (project);

CREATE TABLE feature_environments (
  feature_name text NOT NULL REFERENCES features(name) ON DELETE CASCADE,
  environment text NOT NULL REFERENCES environments(name) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  variants jsonb NOT NULL DEFAULT '[]',
  last_seen_at timestamptz,
  PRIMARY KEY (feature_name, environment)
);

CREATE TABLE feature_strategies (
  id text PRIMARY KEY,
  feature_name text NOT NULL REFERENCES features(name) ON DELETE CASCADE,
  project_name text NOT NULL,
  environment text NOT NULL REFERENCES environments(name) ON DELETE CASCADE,
  strategy_name text NOT NULL,
  title text,
  disabled boolean NOT NULL DEFAULT false,
  parameters jsonb NOT NULL DEFAULT '{}',
  constraints jsonb NOT NULL DEFAULT '[]',
  variants jsonb NOT NULL DEFAULT '[]',
  sort_order integer NOT NULL DEFAULT 9999,
  created_at timestamptz NOT NULL,
  created_by_user_id integer
);
CREATE INDEX feature_strategies_feature_env_idx ON feature_strategies (feature_name, environment);

CREATE TABLE segments (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  description text,
  project text REFERENCES projects(id) ON DELETE CASCADE,
  constraints jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  created_by text
);

CREATE TABLE feature_strategy_segment (
  feature_strategy_id text NOT NULL REFERENCES feature_strategies(id) ON DELETE CASCADE,
  segment_id integer NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
  PRIMARY KEY (feature_strategy_id, segment_id)
);

CREATE TABLE dependent_features (
  parent text NOT NULL REFERENCES features(name) ON DELETE CASCADE,
  child text NOT NULL REFERENCES features(name) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT true,
  variants jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (parent, child)
);

CREATE TABLE tag_types (
  name text PRIMARY KEY,
  description text,
  icon text,
  created_at timestamptz NOT NULL
);

CREATE TABLE tags (
  type text NOT NULL REFERENCES tag_types(name) ON DELETE CASCADE,
  value text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (type, value)
);

CREATE TABLE feature_tag (
  feature_name text NOT NULL REFERENCES features(name) ON DELETE CASCADE,
  tag_type text NOT NULL,
  tag_value text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (feature_name, tag_type, tag_value),
  FOREIGN KEY (tag_type, tag_value) REFERENCES tags(type, value) ON DELETE CASCADE
);

-- Flag lifecycle for insights: initial -> pre-live -> live -> archived, first time reached.
CREATE TABLE feature_lifecycles (
  feature text NOT NULL REFERENCES features(name) ON DELETE CASCADE,
  stage text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (feature, stage)
);

INSERT INTO projects (id, name, description, created_at)
  VALUES ('default', 'Default', 'Default project', now());
INSERT INTO environments (name, type, sort_order, created_at) VALUES
  ('development', 'development', 100, now()),
  ('production', 'production', 200, now());
INSERT INTO project_environments (project_id, environment_name) VALUES
  ('default', 'development'), ('default', 'production');
INSERT INTO feature_types (id, name, description, lifetime_days) VALUES
  ('release', 'Release', 'Release feature flags are used to release new features.', 40),
  ('experiment', 'Experiment', 'Experiment feature flags are used to test and verify multiple different versions of a feature.', 40),
  ('operational', 'Operational', 'Operational feature flags are used to control aspects of a rollout.', 7),
  ('kill-switch', 'Kill switch', 'Kill switch feature flags are used to quickly turn on or off critical functionality in your system.', NULL),
  ('permission', 'Permission', 'Permission feature flags are used to control permissions in your system.', NULL);
INSERT INTO tag_types (name, description, icon, created_at)
  VALUES ('simple', 'Used to simplify filtering of features', '#', now());
`,
}

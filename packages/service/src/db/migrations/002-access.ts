import type { Migration } from './types.js'

/** Users, API tokens and personal access tokens. Secrets are stored only as SHA-256 hashes. */
export const migration: Migration = {
  version: 2,
  name: 'access',
  sql: `
CREATE TABLE users (
  id serial PRIMARY KEY,
  name text,
  username text,
  email text,
  image_url text,
  root_role text NOT NULL DEFAULT 'Viewer',
  is_service boolean NOT NULL DEFAULT false,
  is_system boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  seen_at timestamptz,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX users_email_idx ON users (lower(email)) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_username_idx ON users (lower(username)) WHERE deleted_at IS NULL;
CREATE INDEX users_seen_at_idx ON users (seen_at);

CREATE TABLE api_tokens (
  id serial PRIMARY KEY,
  secret_hash text NOT NULL UNIQUE,
  -- The non-secret part, 'project:environment.' plus a few characters, for listings.
  display text NOT NULL,
  token_name text NOT NULL,
  type text NOT NULL,
  environment text NOT NULL,
  projects text[] NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  seen_at timestamptz
);

CREATE TABLE personal_access_tokens (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  secret_hash text NOT NULL UNIQUE,
  description text NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  seen_at timestamptz
);
`,
}

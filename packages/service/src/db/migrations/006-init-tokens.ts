import type { Migration } from './types.js'

/**
 * Which INIT_* variable an API token came from, so a start can delete the ones taken off the
 * list (NULL: made through the API or by the demo seed, never touched).
 */
export const migration: Migration = {
  version: 6,
  name: 'init-tokens',
  sql: `
ALTER TABLE api_tokens ADD COLUMN init_variable text;

-- Tokens an older version inserted from INIT_*: it named them admin-init-token and
-- client-init-token and wrote no event, while every token made through the API has its
-- api-token-created event (the event log is never pruned), so a same-named API token stays NULL.
UPDATE api_tokens SET init_variable = CASE token_name WHEN 'admin-init-token' THEN 'INIT_ADMIN_API_TOKENS' ELSE 'INIT_CLIENT_API_TOKENS' END
WHERE token_name IN ('admin-init-token', 'client-init-token')
  AND NOT EXISTS (SELECT 1 FROM events e WHERE e.type = 'api-token-created' AND e.data->>'id' = api_tokens.id::text);
`,
}

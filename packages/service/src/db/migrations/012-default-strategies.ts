import type { Migration } from './types.js'

/**
 * A project's default strategy per environment (Unleash's `project_environments.default_strategy`):
 * the strategy enabling a flag adds where it has none. NULL: Unleash's built-in (flexibleRollout
 * 100%, the project's default stickiness). It goes with the project's environment when the
 * environment leaves the project.
 */
export const migration: Migration = {
  version: 12,
  name: 'default-strategies',
  sql: `
ALTER TABLE project_environments ADD COLUMN default_strategy jsonb;
`,
}

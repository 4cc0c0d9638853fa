import type { Migration } from './types.js'

/**
 * How often the action runner tried a signal and, when it gave up, why: a signal whose handling
 * fails as a whole (not one action: those are recorded in their run) is retried a bounded
 * number of times, then marked announced with the failure kept here.
 */
export const migration: Migration = {
  version: 7,
  name: 'signal-attempts',
  sql: `
ALTER TABLE signals ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE signals ADD COLUMN failure text;
`,
}

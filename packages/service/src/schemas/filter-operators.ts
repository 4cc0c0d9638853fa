/**
 * The constraint operators an action filter may use: the engine's, minus DATE_* (the engine
 * compares those with the context's currentTime, never with a field, as the Node SDK does) and
 * the Vexil extensions REGEX and IN_CIDR. Its own module so the admin UI can list them without
 * bundling the engine.
 */
export const FILTER_OPERATORS = [
  'IN',
  'NOT_IN',
  'STR_CONTAINS',
  'STR_STARTS_WITH',
  'STR_ENDS_WITH',
  'NUM_EQ',
  'NUM_GT',
  'NUM_GTE',
  'NUM_LT',
  'NUM_LTE',
  'SEMVER_EQ',
  'SEMVER_GT',
  'SEMVER_GTE',
  'SEMVER_LT',
  'SEMVER_LTE',
] as const

/**
 * URL-safe names, as Unleash requires for flags, projects and environments: one rule for the
 * API's schemas and the admin UI's forms (through `@vexil/service/admin-rules`), so they cannot
 * disagree.
 */
export const URL_SAFE_NAME_PATTERN = /^[a-zA-Z0-9\-._~]+$/
export const URL_SAFE_NAME_MAX_LENGTH = 100
export const URL_SAFE_NAME_RULE = 'must be URL-friendly: letters, digits, "-", ".", "_" and "~"'

/**
 * What a signal endpoint's name may be (Unleash's UI regex, issue 6): it is a path segment of the
 * ingest URL. One rule for the API's validation and the admin UI's form, so they cannot disagree.
 */
export const SIGNAL_ENDPOINT_NAME_PATTERN = /^[a-z0-9_-]+$/
export const SIGNAL_ENDPOINT_NAME_MAX_LENGTH = 100
export const SIGNAL_ENDPOINT_NAME_RULE = 'must be URL-safe: lowercase letters, digits, "-" and "_"'

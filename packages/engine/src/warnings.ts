// What `load` reports: one warning per problem found in a payload, naming the flag it costs.
// Codes are a closed list (documented in the README), so a host can count, filter or alert on
// them; the message says what is wrong and what the engine does about it.

export type WarningCode =
  /** The payload is not an object, or has neither `features` nor `events`: nothing was loaded. */
  | 'invalid-payload'
  /** A feature without a name (skipped), or a flag that could not be compiled (always off). */
  | 'invalid-flag'
  /** A segment without a numeric id (skipped), or a `segments` that is not an array (ignored). */
  | 'invalid-segment'
  /** A delta event that is not an object or has an unknown type (ignored). */
  | 'invalid-event'
  /** A strategy that is not an object, or a rollout percentage that is not a number: it never matches. */
  | 'invalid-strategy'
  /** A strategy name neither built in nor given to createEngine: it never matches. */
  | 'unknown-strategy'
  /** A strategy references a segment the payload does not have: that strategy never matches. */
  | 'unknown-segment'
  /** A constraint that is not an object: it never matches. */
  | 'invalid-constraint'
  /** An operator the engine does not know: the constraint never matches, even inverted. */
  | 'unknown-operator'
  /** A NUM_* value that is not a number: the constraint is false (true when inverted). */
  | 'invalid-number'
  /** A DATE_* value that is not a date: the constraint is false (true when inverted). */
  | 'invalid-date'
  /** A SEMVER_* value that is not a semantic version: the constraint is false (true when inverted). */
  | 'invalid-semver'
  /** A REGEX pattern RE2 rejects: the constraint is false (true when inverted). */
  | 'invalid-regex'
  /**
   * An IN_CIDR value, or a remoteAddress `IPs` entry, that is neither an IP address nor a CIDR
   * range: IN_CIDR skips it; remoteAddress only compares it with the context's text.
   */
  | 'invalid-cidr'
  /** A dependency that names no parent flag: it is never satisfied. */
  | 'invalid-dependency'
  /** A dependency on a flag the payload does not have: it is never satisfied. */
  | 'unknown-dependency'

export interface EngineWarning {
  /** The flag the problem affects; undefined for a problem of the payload itself or of a segment. */
  readonly flag: string | undefined
  readonly code: WarningCode
  /** What is wrong and what the engine does about it (without the flag's name). */
  readonly message: string
}

/** Reports a problem of the flag (or segment) being compiled. */
export type Warn = (code: WarningCode, message: string) => void

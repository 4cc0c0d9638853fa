// What the engine is given besides the payload (context, options, custom strategies) and what
// it produces. The payload's shapes are in `raw-payload.ts` (as received) and
// `definitions.ts` (well-formed).

export interface VariantPayload {
  type: string
  value: string
}

/**
 * The evaluation context. Any field name can be used by constraints and custom stickiness:
 * it is read from the top level first, then from `properties` (Node SDK semantics).
 */
export interface Context {
  userId?: string
  sessionId?: string
  remoteAddress?: string
  environment?: string
  appName?: string
  currentTime?: string | Date
  properties?: Record<string, unknown>
  [key: string]: unknown
}

/** The result of `getVariant`, and the `variant` of every evaluated toggle. */
export interface Variant {
  name: string
  enabled: boolean
  payload?: VariantPayload
  feature_enabled: boolean
  featureEnabled: boolean
}

/** One element of the `toggles` array that `/proxy` returns. */
export interface EvaluatedToggle {
  name: string
  enabled: boolean
  variant: Variant
  impressionData: boolean
}

export interface CustomStrategy {
  name: string
  isEnabled(parameters: Record<string, string>, context: Context): boolean
}

export interface EngineOptions {
  /** Custom strategies, checked before the built-ins (so they can override a built-in name). */
  strategies?: CustomStrategy[]
  /** The hostname the `applicationHostname` strategy compares with (lowercased). */
  hostname?: string
}

/**
 * Filled by `evaluateAll` when passed: what the answers depended on besides the context. A
 * server may reuse an answer for an identical context only when it used no randomness and no
 * custom strategy; if it read the clock, only until `engine.nextTimeBoundary(now)`.
 */
export interface EvaluationTrace {
  usedRandom: boolean
  usedClock: boolean
  usedCustomStrategy: boolean
}

export interface EvaluateAllOptions {
  /** Return disabled toggles too (GET /proxy/all). */
  includeDisabled?: boolean
  /** Evaluate exactly these names, in this order, duplicates kept; unknown names come back disabled. */
  names?: readonly string[]
  /** Receives what the evaluation depended on besides the context. */
  trace?: EvaluationTrace
}

// --- Evaluation details, in OpenFeature's vocabulary (engine.evaluate) ---

/**
 * OpenFeature's type of a flag's value, fixed by the flag's configuration, never by one
 * evaluation: `boolean` for a flag without variants; otherwise from its variants' payloads
 * (`string` and `csv` payloads and variants without payload: `string`; `number`: `number`;
 * `json`: `object`), and `string` when they mix types (each value is then the payload's text).
 */
export type FlagValueType = 'boolean' | 'string' | 'number' | 'object'

/** A JSON value, as an `object` flag's payload parses to. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

export type FlagValue = boolean | string | number | JsonValue[] | { [key: string]: JsonValue }

/** OpenFeature's standard resolution reasons that an evaluation can give. */
export type ResolutionReason = 'STATIC' | 'TARGETING_MATCH' | 'SPLIT' | 'DEFAULT' | 'DISABLED' | 'ERROR'

/** OpenFeature's error codes that an evaluation can give (TYPE_MISMATCH is the caller's to decide). */
export type EvaluationErrorCode = 'FLAG_NOT_FOUND' | 'PARSE_ERROR' | 'GENERAL'

/** Flat metadata of a result: what an app or a hook may want besides the value. */
export interface FlagMetadata {
  /** Unleash's enabled state for this context (a typed flag's value does not show it). */
  readonly enabled: boolean
  readonly impressionData: boolean
}

/**
 * One flag's result for one context, shaped as OpenFeature's resolution details plus Unleash's
 * answer. Shared and frozen: the same outcome returns the same object (and the same value
 * object: never change it). The mapping is in the engine README ("Evaluation details").
 */
export interface EvaluationDetails {
  readonly flagKey: string
  /** Undefined only for FLAG_NOT_FOUND. */
  readonly type: FlagValueType | undefined
  /**
   * The value: the enabled state for a `boolean` flag; the chosen variant's payload by the flag's
   * type otherwise. Absent when the caller's default should win (a typed flag that is off, or on
   * without a variant) and on errors.
   */
  readonly value?: FlagValue
  /** `enabled`/`disabled` for a boolean flag; the chosen variant's name for a typed one. */
  readonly variant?: string
  readonly reason: ResolutionReason
  readonly errorCode?: EvaluationErrorCode
  readonly errorMessage?: string
  readonly flagMetadata: FlagMetadata | Record<string, never>
  /** Unleash's answer for the same evaluation (what `/proxy` returns for the flag). */
  readonly toggle: EvaluatedToggle
}

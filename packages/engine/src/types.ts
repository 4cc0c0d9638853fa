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

// The shapes the engine consumes (the Unleash client features payload) and produces.
// Payload types describe well-formed input; the compiler still checks every field, because
// payloads arrive over the network and one bad flag must never break the others.

export interface ConstraintDefinition {
  contextName: string
  operator: string
  values?: string[]
  value?: string
  inverted?: boolean
  caseInsensitive?: boolean
}

export interface SegmentDefinition {
  id: number
  name?: string
  constraints: ConstraintDefinition[]
}

export interface VariantPayload {
  type: string
  value: string
}

export interface VariantOverride {
  contextName: string
  values: string[]
}

export interface VariantDefinition {
  name: string
  weight: number
  weightType?: string
  stickiness?: string
  payload?: VariantPayload
  overrides?: VariantOverride[]
}

export interface StrategyDefinition {
  name: string
  parameters?: Record<string, unknown>
  constraints?: ConstraintDefinition[]
  segments?: number[]
  variants?: VariantDefinition[]
  sortOrder?: number
}

export interface FeatureDependency {
  feature: string
  enabled?: boolean
  variants?: string[]
}

export interface FeatureDefinition {
  name: string
  enabled: boolean
  strategies: StrategyDefinition[]
  variants?: VariantDefinition[]
  dependencies?: FeatureDependency[]
  impressionData?: boolean
  type?: string
  project?: string
  description?: string
  stale?: boolean
  [key: string]: unknown
}

/** The full form of `GET /api/client/features`. */
export interface ClientFeaturesPayload {
  version?: number
  features: FeatureDefinition[]
  segments?: SegmentDefinition[]
  query?: unknown
  meta?: unknown
}

export type DeltaEvent =
  | { type: 'hydration'; eventId?: number; features: FeatureDefinition[]; segments?: SegmentDefinition[] }
  | { type: 'feature-updated'; eventId?: number; feature: FeatureDefinition }
  | { type: 'feature-removed'; eventId?: number; featureName: string; project?: string }
  | { type: 'segment-updated'; eventId?: number; segment: SegmentDefinition }
  | { type: 'segment-removed'; eventId?: number; segmentId: number }

/** The delta form: events applied in array order. */
export interface ClientFeaturesDelta {
  events: DeltaEvent[]
}

export type EngineState = ClientFeaturesPayload | ClientFeaturesDelta

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

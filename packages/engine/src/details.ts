// engine.evaluate: one flag's result in OpenFeature's vocabulary (value, variant, reason, error
// code), for OFREP and the OpenFeature provider (packages/engine/README.md, "Evaluation
// details"). It follows the same path as getVariant (evaluate.ts) and also notes why: which
// strategy matched, and whether a variant came from an override or a weighted split. Like the
// toggles, each result is made once per outcome and reason, then shared: a call allocates nothing.
import type { CompiledFeature } from './compile-feature.js'
import type { StrategyReason } from './compile-strategy.js'
import { isObject } from './coerce.js'
import {
  type FeatureLookup,
  FIRST_VARIANT_OUTCOME,
  matchFeature,
  OFF_OUTCOME,
  ON_WITHOUT_VARIANT_OUTCOME,
  outcome,
  strategyOutcome,
} from './evaluate.js'
import type { Frame } from './frame.js'
import { OFF, ON_WITHOUT_STRATEGIES } from './program.js'
import { overrideIndex, weightedIndex } from './variants.js'
import type {
  EvaluatedToggle,
  EvaluationDetails,
  EvaluationErrorCode,
  FlagValue,
  FlagValueType,
  ResolutionReason,
} from './types.js'
import { unknownToggle } from './outcomes.js'

/** What evaluate derives from a flag's configuration, once. */
export interface FeatureDescription {
  type: FlagValueType
  /** Variants of mixed payload types: every value is the payload's text (or the variant's name). */
  textual: boolean
  /** Results of the flag's own outcomes, by `outcome slot * REASONS.length + reason`. */
  results: Array<EvaluationDetails | undefined>
  /** Results of each strategy's variants, by strategy index, then variant index. */
  strategyResults: Array<Array<EvaluationDetails | undefined> | undefined>
}

const REASONS: readonly ResolutionReason[] = ['STATIC', 'TARGETING_MATCH', 'SPLIT', 'DEFAULT', 'DISABLED']
const NO_METADATA: Record<string, never> = Object.freeze({})

/** Details of `feature` for the frame's context; a throwing custom strategy is the caller's to catch. */
export function evaluateDetails(feature: CompiledFeature, frame: Frame, features: FeatureLookup): EvaluationDetails {
  const described = (feature.described ??= describe(feature))
  if (feature.invalid !== undefined) return ownResult(feature, described, OFF_OUTCOME, 'DISABLED')
  const match = matchFeature(feature, frame, features)
  if (match === OFF) return ownResult(feature, described, OFF_OUTCOME, feature.enabled ? 'DEFAULT' : 'DISABLED')
  let matched: StrategyReason = 'STATIC'
  if (match !== ON_WITHOUT_STRATEGIES) {
    const strategy = feature.strategies[match]!
    matched = strategy.reason
    const variants = strategy.variants
    if (variants) {
      const index = weightedIndex(variants, frame)
      if (index >= 0) {
        const results = (described.strategyResults[match] ??= [])
        return (results[index] ??= result(
          feature,
          described,
          strategyOutcome(feature, strategy, index),
          variants.splits ? 'SPLIT' : matched,
        ))
      }
    }
  }
  const variants = feature.variants
  if (!variants) return ownResult(feature, described, ON_WITHOUT_VARIANT_OUTCOME, matched)
  const overridden = overrideIndex(variants, frame)
  if (overridden >= 0) return ownResult(feature, described, FIRST_VARIANT_OUTCOME + overridden, 'TARGETING_MATCH')
  const index = weightedIndex(variants, frame)
  return index < 0
    ? ownResult(feature, described, ON_WITHOUT_VARIANT_OUTCOME, matched)
    : ownResult(feature, described, FIRST_VARIANT_OUTCOME + index, variants.splits ? 'SPLIT' : matched)
}

/**
 * What evaluateDetails returns, for a decision taken by explain: `match` as matchFeature
 * gives it, then the variant chosen from the matched strategy's variants or the flag's (-1: none),
 * the flag's by an override or not. The same shared results, by the same rules; the explain
 * property test holds the two equal.
 */
export function decidedDetails(
  feature: CompiledFeature,
  match: number,
  strategyVariant: number,
  flagVariant: number,
  overridden: boolean,
): EvaluationDetails {
  const described = (feature.described ??= describe(feature))
  if (feature.invalid !== undefined) return ownResult(feature, described, OFF_OUTCOME, 'DISABLED')
  if (match === OFF) return ownResult(feature, described, OFF_OUTCOME, feature.enabled ? 'DEFAULT' : 'DISABLED')
  let matched: StrategyReason = 'STATIC'
  if (match !== ON_WITHOUT_STRATEGIES) {
    const strategy = feature.strategies[match]!
    matched = strategy.reason
    if (strategyVariant >= 0) {
      const results = (described.strategyResults[match] ??= [])
      return (results[strategyVariant] ??= result(
        feature,
        described,
        strategyOutcome(feature, strategy, strategyVariant),
        strategy.variants!.splits ? 'SPLIT' : matched,
      ))
    }
  }
  if (flagVariant < 0) return ownResult(feature, described, ON_WITHOUT_VARIANT_OUTCOME, matched)
  if (overridden) return ownResult(feature, described, FIRST_VARIANT_OUTCOME + flagVariant, 'TARGETING_MATCH')
  return ownResult(
    feature,
    described,
    FIRST_VARIANT_OUTCOME + flagVariant,
    feature.variants!.splits ? 'SPLIT' : matched,
  )
}

/** The result for a name the engine does not know. */
export function flagNotFound(name: string): EvaluationDetails {
  return Object.freeze({
    flagKey: name,
    type: undefined,
    reason: 'ERROR',
    errorCode: 'FLAG_NOT_FOUND',
    errorMessage: `No flag named "${name}"`,
    flagMetadata: NO_METADATA,
    toggle: unknownToggle(name),
  })
}

/** An evaluation that failed (a custom strategy threw): the flag counts as off. */
export function evaluationFailed(feature: CompiledFeature, message: string): EvaluationDetails {
  const described = (feature.described ??= describe(feature))
  return failure(feature, described, outcome(feature, OFF_OUTCOME), 'GENERAL', message)
}

// --- Internal helpers ---

function ownResult(
  feature: CompiledFeature,
  described: FeatureDescription,
  slot: number,
  reason: ResolutionReason,
): EvaluationDetails {
  const key = slot * REASONS.length + REASONS.indexOf(reason)
  return (described.results[key] ??= result(feature, described, outcome(feature, slot), reason))
}

/** The result for one outcome of the flag, and the reason it was chosen. */
function result(
  feature: CompiledFeature,
  described: FeatureDescription,
  toggle: EvaluatedToggle,
  reason: ResolutionReason,
): EvaluationDetails {
  const flagKey = feature.name
  if (feature.invalid !== undefined)
    return failure(feature, described, toggle, 'PARSE_ERROR', `The flag ${feature.invalid}`)
  const flagMetadata = Object.freeze({ enabled: toggle.enabled, impressionData: feature.impressionData })
  const type = described.type
  if (type === 'boolean') {
    return Object.freeze({
      flagKey,
      type,
      value: toggle.enabled,
      variant: toggle.enabled ? 'enabled' : 'disabled',
      reason,
      flagMetadata,
      toggle,
    })
  }
  const variant = toggle.variant
  // Off, or on without a variant: the caller's default is the value.
  if (!toggle.enabled) return Object.freeze({ flagKey, type, reason, flagMetadata, toggle })
  if (!variant.enabled) return Object.freeze({ flagKey, type, reason: 'DEFAULT', flagMetadata, toggle })
  const value = payloadValue(variant.name, variant.payload, type, described.textual)
  if (typeof value === 'object' && 'problem' in value)
    return failure(
      feature,
      described,
      toggle,
      'PARSE_ERROR',
      `Variant "${variant.name}" of flag "${flagKey}": ${value.problem}`,
    )
  return Object.freeze({ flagKey, type, value: value.value, variant: variant.name, reason, flagMetadata, toggle })
}

function failure(
  feature: CompiledFeature,
  described: FeatureDescription,
  toggle: EvaluatedToggle,
  errorCode: EvaluationErrorCode,
  errorMessage: string,
): EvaluationDetails {
  const flagMetadata = Object.freeze({ enabled: toggle.enabled, impressionData: feature.impressionData })
  return Object.freeze({
    flagKey: feature.name,
    type: described.type,
    reason: 'ERROR',
    errorCode,
    errorMessage,
    flagMetadata,
    toggle,
  })
}

/** A payload's value as the flag's type, or why it cannot be. */
function payloadValue(
  name: string,
  payload: { type: string; value: string } | undefined,
  type: FlagValueType,
  textual: boolean,
): { value: FlagValue } | { problem: string } {
  if (!payload) return { value: name }
  const text: unknown = payload.value
  if (typeof text !== 'string') return { problem: 'the payload has no string value' }
  if (textual || type === 'string') return { value: text }
  if (type === 'number') {
    const number = text.trim() === '' ? Number.NaN : Number(text)
    return Number.isFinite(number)
      ? { value: number }
      : { problem: `the number payload ${JSON.stringify(text)} is not a finite number` }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { problem: 'the json payload does not parse' }
  }
  if (typeof parsed !== 'object' || parsed === null) return { problem: 'the json payload is not an object or an array' }
  try {
    // Both recurse: a payload nested past the stack (JSON.parse reads it) would make every
    // serializer of the value throw, so it is refused here, once.
    deepFreeze(parsed)
    JSON.stringify(parsed)
  } catch {
    return { problem: 'the json payload is nested too deeply' }
  }
  return { value: parsed as FlagValue }
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

const PAYLOAD_TYPES: Readonly<Record<string, FlagValueType>> = {
  string: 'string',
  csv: 'string',
  number: 'number',
  json: 'object',
}

/** The flag's OpenFeature type from every variant it has (feature-level and each strategy's). */
function describe(feature: CompiledFeature): FeatureDescription {
  const types = new Set<FlagValueType>()
  const note = (definitions: readonly unknown[]) => {
    for (const definition of definitions) {
      const payload = isObject(definition) ? definition.payload : undefined
      const payloadType = isObject(payload) ? payload.type : undefined
      types.add(typeof payloadType === 'string' ? (PAYLOAD_TYPES[payloadType] ?? 'string') : 'string')
    }
  }
  note(feature.variantDefinitions)
  for (const strategy of feature.strategies) note(strategy.variantDefinitions)
  const [only] = types
  return {
    type: types.size === 0 ? 'boolean' : types.size === 1 ? only! : 'string',
    textual: types.size > 1,
    results: [],
    strategyResults: [],
  }
}

// The engine's evaluation details -> OpenFeature resolution details (README, "Values and types").
// The engine makes one details object per flag and outcome and shares it; so does the provider
// with the resolutions made from them (see provider.ts): a resolution of an outcome seen before
// allocates nothing. Errors carry the caller's default, so they are made per call.
import {
  ErrorCode,
  type FlagValueType,
  type ResolutionDetails,
  StandardResolutionReasons,
} from '@openfeature/server-sdk'
import type { EvaluationDetails } from '@vexil/engine'

type Metadata = ResolutionDetails<unknown>['flagMetadata']

/**
 * The boolean answer to an outcome without an error: the flag's Unleash enabled state, for flags
 * with variants too (as OpenFeature's Unleash providers answer `isEnabled`), with the engine's
 * variant and reason (a flag with variants: the variant's name, `enabled`/`disabled` without one).
 */
export function booleanResolution(details: EvaluationDetails): ResolutionDetails<boolean> {
  const enabled = details.toggle.enabled
  return Object.freeze({
    value: enabled,
    variant: details.variant ?? (enabled ? 'enabled' : 'disabled'),
    reason: details.reason,
    flagMetadata: details.flagMetadata as Metadata,
  })
}

/** The answer to an outcome with a value, as the engine gives it (without its `type` and `toggle`). */
export function valueResolution(details: EvaluationDetails): ResolutionDetails<unknown> {
  return Object.freeze({
    value: details.value,
    variant: details.variant,
    reason: details.reason,
    flagMetadata: details.flagMetadata as Metadata,
  })
}

/**
 * A string, number or object answer: the enabled variant's payload as the flag's type (`shared`
 * gives the outcome's resolution). No value (off, or on without a variant) is the caller's
 * default with the engine's reason; a value of another type is TYPE_MISMATCH.
 */
export function typedResolution<T>(
  details: EvaluationDetails,
  defaultValue: T,
  type: Exclude<FlagValueType, 'boolean'>,
  shared: (details: EvaluationDetails) => ResolutionDetails<unknown>,
): ResolutionDetails<T> {
  const value = details.value
  if (value !== undefined) {
    if (type === 'object' ? typeof value === 'object' && value !== null : typeof value === type)
      return shared(details) as ResolutionDetails<T>
    return {
      value: defaultValue,
      reason: StandardResolutionReasons.ERROR,
      errorCode: ErrorCode.TYPE_MISMATCH,
      errorMessage: `Flag "${details.flagKey}" has ${typeNoun(details)} values; it was asked for a ${type}`,
      flagMetadata: details.flagMetadata as Metadata,
    }
  }
  if (details.errorCode !== undefined) return failure(details, defaultValue)
  return { value: defaultValue, reason: details.reason, flagMetadata: details.flagMetadata as Metadata }
}

/** The engine's error (FLAG_NOT_FOUND, PARSE_ERROR, GENERAL): the caller's default, reason ERROR. */
export function failure<T>(
  details: EvaluationDetails,
  defaultValue: T,
  code: ErrorCode = ErrorCode[details.errorCode ?? 'GENERAL'],
  message = details.errorMessage,
): ResolutionDetails<T> {
  return {
    value: defaultValue,
    reason: StandardResolutionReasons.ERROR,
    errorCode: code,
    errorMessage: message,
    flagMetadata: details.flagMetadata as Metadata,
  }
}

function typeNoun(details: EvaluationDetails): string {
  return details.type === 'object' ? 'object (JSON)' : `${details.type ?? 'unknown'}`
}

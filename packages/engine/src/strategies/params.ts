import { stringify } from '../coerce.js'
import type { Warn } from '../warnings.js'

/** A comma-separated list parameter, each entry trimmed, empty entries dropped. */
export function listParameter(value: unknown): string[] {
  const text = stringify(value)
  if (!text) return []
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

/** A percentage parameter with `Number()` semantics: "50.5" is 50.5, garbage is NaN (never on). */
export function percentageParameter(value: unknown): number {
  if (typeof value === 'number') return value
  const text = stringify(value)
  return text === undefined ? Number.NaN : Number(text)
}

/**
 * A rollout's percentage (`percentageParameter`), with a warning when it cannot be what was meant:
 * not a number (or none) never matches; below 0 never matches, above 100 matches everyone.
 */
export function rolloutParameter(parameters: Record<string, unknown>, name: string, warn: Warn): number {
  const percentage = percentageParameter(parameters[name])
  if (percentage > 0 && percentage <= 100) return percentage
  const text = stringify(parameters[name])?.trim()
  if (!text || Number.isNaN(percentage)) {
    const given = text ? `${JSON.stringify(text)} is not a number` : `no ${name} given`
    warn('invalid-strategy', `${given}; the strategy never matches`)
  } else if (percentage < 0) {
    warn('invalid-strategy', `${name} ${text} is below 0; the strategy never matches`)
  } else if (percentage > 100) {
    warn('invalid-strategy', `${name} ${text} is above 100; the strategy matches everyone`)
  }
  return percentage
}

/** The group id of a rollout; a missing or empty one defaults to the feature name (as Unleash's own server fills it). */
export function groupIdParameter(value: unknown, featureName: string): string {
  const text = stringify(value)
  return text ? text : featureName
}

import { stringify } from '../coerce.js'

/** A comma-separated list parameter, each entry trimmed, empty entries dropped. */
export function listParameter(value: unknown): string[] {
  const text = stringify(value)
  if (!text) return []
  return text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
}

/** A percentage parameter with `Number()` semantics: "50.5" is 50.5, garbage is NaN (never on). */
export function percentageParameter(value: unknown): number {
  if (typeof value === 'number') return value
  const text = stringify(value)
  return text === undefined ? Number.NaN : Number(text)
}

/** The group id of a rollout; a missing or empty one defaults to the feature name (as Unleash's own server fills it). */
export function groupIdParameter(value: unknown, featureName: string): string {
  const text = stringify(value)
  return text ? text : featureName
}

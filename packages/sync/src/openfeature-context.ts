// OpenFeature's evaluation context -> the Unleash context the engine reads, for the OpenFeature
// provider (every evaluation) and the proxy's OFREP routes (every request body). One table:
//
// | evaluation context key                                     | Unleash context                                           |
// |------------------------------------------------------------|-----------------------------------------------------------|
// | `userId`, `sessionId`, `remoteAddress`, `environment`, `appName` | the same top-level field: strings as they are, numbers and booleans stringified, anything else dropped (`appName`, `environment` default to the caller's) |
// | `targetingKey`                                             | `userId` unless an explicit `userId` is set; also a property |
// | `currentTime`                                              | top-level: a valid Date, a parseable string or epoch ms; else dropped |
// | `properties` (an object)                                   | its entries merged into `properties`, over top-level keys of the same name |
// | any other key                                              | `properties[key]`: strings as they are, numbers and booleans stringified, dates as ISO, objects and arrays as JSON, null and undefined dropped |
//
// It runs on every evaluation, so it copies nothing it does not have to: the engine reads a field
// top-level first, then from `properties`, turning numbers, booleans and dates into strings as
// it reads them (the rule above), so when every custom attribute is such a value the evaluation
// context itself serves as `properties`. Only an object, an array, an invalid date or a nested
// `properties` object makes a converted copy (and custom strategies, which see the context as it
// is, always get the copy).
import type { Context } from '@vexil/engine'

/** An OpenFeature evaluation context (or an OFREP request's `context`): any keys, any values. */
export type EvaluationContextLike = Readonly<Record<string, unknown>>

/** The engine's context with every field the mapping sets, so all contexts share one shape. */
interface UnleashContext extends Context {
  userId: string | undefined
  sessionId: string | undefined
  remoteAddress: string | undefined
  environment: string | undefined
  appName: string | undefined
  currentTime: string | Date | undefined
  properties: Record<string, unknown> | undefined
}

/**
 * Maps `context` to an Unleash context by the table above (`appName` and `environment` defaulting
 * to the arguments). With `copy`, properties are always a new object of strings.
 */
export function toUnleashContext(
  context: EvaluationContextLike | undefined,
  appName: string | undefined,
  environment: string | undefined,
  copy = false,
): Context {
  const result: UnleashContext = {
    userId: undefined,
    sessionId: undefined,
    remoteAddress: undefined,
    environment,
    appName,
    currentTime: undefined,
    properties: undefined,
  }
  if (context === undefined || context === null) return result
  let explicitUserId = false
  let readable = !copy
  // An if-chain, string values first (the common case): faster than a switch or a lookup table
  // (see `npm run bench -- openfeature`).
  for (const key in context) {
    const value = context[key]
    if (typeof value === 'string') {
      if (key === 'targetingKey') {
        if (!explicitUserId) result.userId = value
      } else if (key === 'sessionId') result.sessionId = value
      else if (key === 'remoteAddress') result.remoteAddress = value
      else if (key === 'userId') {
        result.userId = value
        explicitUserId = true
      } else if (key === 'environment') result.environment = value
      else if (key === 'appName') result.appName = value
      else if (key === 'currentTime') {
        result.currentTime = timeOf(value)
        // Dropped, so it must not be read from `properties` either.
        if (result.currentTime === undefined) readable = false
      }
      continue
    }
    if (key === 'targetingKey') {
      if (!explicitUserId) result.userId = fieldText(value)
      if (readable) readable = readsAsText(value)
    } else if (key === 'sessionId') {
      result.sessionId = fieldText(value)
      if (result.sessionId === undefined && readable) readable = isNullish(value)
    } else if (key === 'remoteAddress') {
      result.remoteAddress = fieldText(value)
      if (result.remoteAddress === undefined && readable) readable = isNullish(value)
    } else if (key === 'userId') {
      const text = fieldText(value)
      if (text !== undefined) {
        result.userId = text
        explicitUserId = true
      } else if (readable) readable = isNullish(value)
    } else if (key === 'environment') {
      const text = fieldText(value)
      result.environment = text ?? environment
      if (text === undefined && readable) readable = isNullish(value)
    } else if (key === 'appName') {
      const text = fieldText(value)
      result.appName = text ?? appName
      if (text === undefined && readable) readable = isNullish(value)
    } else if (key === 'currentTime') {
      result.currentTime = timeOf(value)
      if (result.currentTime === undefined && readable) readable = isNullish(value)
    } else if (readable) readable = readsAsText(value)
  }
  // The top-level fields above shadow their namesakes in `properties`, so only custom keys are read from it.
  result.properties = readable ? context : copyProperties(context)
  return result
}

/**
 * For a top-level field whose value was dropped: only null and undefined may be dropped without a
 * copy. Anything else (an invalid date, an object that does not serialize) is missing at the top
 * level, but the engine would find it in the uncopied context's properties.
 */
function isNullish(value: unknown): boolean {
  return value === undefined || value === null
}

/** Whether the engine reads `value` as the mapping's string (or as missing, for null and undefined). */
function readsAsText(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return true
    case 'object':
      return value === null || (value instanceof Date && !Number.isNaN(value.getTime()))
    default:
      return false
  }
}

const TOP_LEVEL = new Set(['userId', 'sessionId', 'remoteAddress', 'environment', 'appName', 'currentTime'])

/** The custom keys as strings, then a `properties` object's entries over them (as `/proxy` and OFREP read a context). */
function copyProperties(context: EvaluationContextLike): Record<string, string> {
  const properties: Record<string, string> = {}
  let nested: Record<string, unknown> | undefined
  for (const key in context) {
    if (TOP_LEVEL.has(key)) continue
    const value = context[key]
    if (key === 'properties' && isRecord(value)) {
      nested = value
      continue
    }
    const text = textOf(value)
    if (text !== undefined) properties[key] = text
  }
  if (nested) {
    for (const key in nested) {
      const text = textOf(nested[key])
      if (text !== undefined) properties[key] = text
    }
  }
  return properties
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
}

/** A top-level field's value as a string: strings as they are, numbers and booleans stringified; anything else is missing. */
function fieldText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  return undefined
}

/** A property's value as a string: strings as they are, primitives stringified, dates as ISO, objects as JSON; null and undefined missing. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (typeof value !== 'object' || value === null) return undefined
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString()
  return jsonOf(value)
}

function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    // A cycle or a BigInt inside: the attribute cannot be matched, so it is missing.
    return undefined
  }
}

/** `currentTime`: a valid Date, an ISO string that parses, or epoch ms; anything else is dropped (the engine then uses now). */
function timeOf(value: unknown): string | Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value
  if (typeof value === 'string') return Number.isNaN(Date.parse(value)) ? undefined : value
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value)
  return undefined
}

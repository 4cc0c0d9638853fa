import type { Context } from './types.js'

/** Reads one context field as a string, or `undefined` when it is missing. */
export type FieldAccessor = (context: Context) => string | undefined

const hasOwn = Object.prototype.hasOwnProperty

/** `String(value)` that never throws (an object with a hostile `toString` is treated as missing). */
export function stringify(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return undefined
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString()
  try {
    return String(value)
  } catch {
    return undefined
  }
}

/**
 * Node SDK semantics (evaluation-semantics.md section 0): the top-level field, else
 * `properties[field]`; null or undefined is missing; anything else is `String()`-ed.
 * The field name is fixed at compile time, so the accessor is chosen once: names that
 * exist on `Object.prototype` (`constructor`, `__proto__`, `toString`...) only read own
 * properties, so a context can never resolve to an inherited function.
 */
export function compileFieldAccessor(field: string): FieldAccessor {
  if (field in Object.prototype) {
    return (context) => {
      if (hasOwn.call(context, field)) {
        const value = stringify(context[field])
        if (value !== undefined) return value
      }
      const properties = context.properties
      if (properties !== null && typeof properties === 'object' && hasOwn.call(properties, field)) {
        return stringify(properties[field])
      }
      return undefined
    }
  }
  return (context) => {
    const top = context[field]
    if (typeof top === 'string') return top
    if (top !== undefined && top !== null) return stringify(top)
    const properties = context.properties
    if (properties === null || properties === undefined) return undefined
    const nested = (properties as Record<string, unknown>)[field]
    if (typeof nested === 'string') return nested
    return stringify(nested)
  }
}

/** The top-level value of a well-known field when it is a non-empty string (truthiness as in Node). */
export function topLevelString(context: Context, field: 'userId' | 'sessionId' | 'remoteAddress'): string | undefined {
  const value = context[field]
  if (typeof value === 'string') return value === '' ? undefined : value
  if (value === null || value === undefined || value === false || value === 0) return undefined
  return stringify(value)
}

// Payload and context values arrive as anything: these turn them into strings and numbers
// without ever throwing (an object with a hostile `toString` or `valueOf` is treated as missing).

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

/** `Number(value)` for strings and numbers, NaN for anything else (`Number(object)` can throw). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string') return Number(value)
  return Number.NaN
}

/** An object whose fields can be read (arrays included: their named fields read as missing). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object'
}

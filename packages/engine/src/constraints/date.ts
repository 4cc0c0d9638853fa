import type { Context } from '../types.js'
import type { ConstraintSpec, Predicate } from './types.js'

/** The context's `currentTime` in epoch ms: now when absent, NaN when unparseable. */
function currentTime(context: Context): number {
  const value = context.currentTime
  if (value === undefined || value === null) return Date.now()
  if (value instanceof Date) return value.getTime()
  if (typeof value === 'string' || typeof value === 'number') return new Date(value).getTime()
  return Number.NaN
}

/**
 * DATE_AFTER / DATE_BEFORE compare the context's `currentTime` (or now) with the value, strictly.
 * Node SDK compat: `contextName` is ignored; the comparison is always on `currentTime`.
 */
export function compileDate({ operator, value }: ConstraintSpec): Predicate {
  const target = value === undefined ? Number.NaN : new Date(value).getTime()
  if (Number.isNaN(target)) return () => false
  return operator === 'DATE_AFTER'
    ? (context) => currentTime(context) > target
    : (context) => currentTime(context) < target
}

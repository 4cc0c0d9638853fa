import { currentTime } from '../context.js'
import type { ConstraintSpec, Predicate } from './types.js'

/**
 * DATE_AFTER / DATE_BEFORE compare the context's `currentTime` (or now) with the value, strictly.
 * Node SDK compat: `contextName` is ignored; the comparison is always on `currentTime`.
 */
export function compileDate({ operator, value }: ConstraintSpec): Predicate {
  const target = value === undefined ? Number.NaN : new Date(value).getTime()
  if (Number.isNaN(target)) return () => false
  return operator === 'DATE_AFTER'
    ? (frame) => currentTime(frame) > target
    : (frame) => currentTime(frame) < target
}

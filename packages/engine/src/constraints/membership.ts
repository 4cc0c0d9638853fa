import { readField } from '../context.js'
import type { ConstraintSpec, Predicate } from './types.js'

// IN / NOT_IN compare exactly and case-sensitively; `caseInsensitive` is ignored (Node SDK).

export function compileIn({ values, field }: ConstraintSpec): Predicate {
  if (values.length === 0) return () => false
  const set = new Set(values)
  return (frame) => {
    const value = readField(frame, field)
    return value !== undefined && set.has(value)
  }
}

/** A missing field passes NOT_IN (spec 11). */
export function compileNotIn({ values, field }: ConstraintSpec): Predicate {
  if (values.length === 0) return () => true
  const set = new Set(values)
  return (frame) => {
    const value = readField(frame, field)
    return value === undefined || !set.has(value)
  }
}

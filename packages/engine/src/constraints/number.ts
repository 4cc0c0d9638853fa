import { readField } from '../context.js'
import type { ConstraintSpec, Predicate } from './types.js'

type Compare = (a: number, b: number) => boolean

const COMPARE: Record<string, Compare> = {
  NUM_EQ: (a, b) => a === b,
  NUM_GT: (a, b) => a > b,
  NUM_GTE: (a, b) => a >= b,
  NUM_LT: (a, b) => a < b,
  NUM_LTE: (a, b) => a <= b,
}

/** NUM_*: `Number()` on both sides (so "12" equals "12.0"); NaN on either side is false (Node SDK). */
export function compileNumber({ operator, value, field }: ConstraintSpec): Predicate {
  const compare = COMPARE[operator]!
  const target = value === undefined ? Number.NaN : Number(value)
  if (Number.isNaN(target)) return () => false
  return (frame) => {
    const raw = readField(frame, field)
    if (raw === undefined) return false
    const actual = Number(raw)
    return !Number.isNaN(actual) && compare(actual, target)
  }
}

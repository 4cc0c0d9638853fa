import { type FieldAccessor, type Frame, readField } from '../frame.js'
import { type ConstraintSpec, type InvalidLiteral, invalidLiteral } from './types.js'

const EQ = 0
const GT = 1
const GTE = 2
const LT = 3
const LTE = 4

const COMPARISONS: Record<string, number> = { NUM_EQ: EQ, NUM_GT: GT, NUM_GTE: GTE, NUM_LT: LT, NUM_LTE: LTE }

export interface NumberData {
  field: FieldAccessor
  target: number
  comparison: number
}

/** A value that is not a number makes the constraint false (Node SDK). */
export function compileNumber({ operator, value, field }: ConstraintSpec): NumberData | InvalidLiteral {
  const target = value === undefined ? Number.NaN : Number(value)
  if (Number.isNaN(target)) return invalidLiteral('invalid-number', value, 'number')
  return { field, target, comparison: COMPARISONS[operator]! }
}

/** NUM_*: `Number()` on the context value (so "12" equals "12.0"); NaN or missing is false. */
export function testNumber(data: NumberData, frame: Frame): boolean {
  const raw = readField(frame, data.field)
  if (raw === undefined) return false
  const actual = Number(raw)
  const target = data.target
  switch (data.comparison) {
    case EQ:
      return actual === target
    case GT:
      return actual > target
    case GTE:
      return actual >= target
    case LT:
      return actual < target
    default:
      return actual <= target
  }
}

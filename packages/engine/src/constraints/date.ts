import { type Frame, currentTime } from '../frame.js'
import { type ConstraintSpec, type InvalidLiteral, invalidLiteral } from './types.js'

export interface DateData {
  target: number
  after: boolean
}

/** An unparseable date makes the constraint false (Node SDK). */
export function compileDate({ operator, value }: ConstraintSpec): DateData | InvalidLiteral {
  const target = value === undefined ? Number.NaN : new Date(value).getTime()
  if (Number.isNaN(target)) return invalidLiteral('invalid-date', value, 'date')
  return { target, after: operator === 'DATE_AFTER' }
}

/**
 * DATE_AFTER / DATE_BEFORE compare the context's `currentTime` (or now) with the value, strictly.
 * Node SDK compat: `contextName` is ignored; the comparison is always on `currentTime`.
 */
export function testDate(data: DateData, frame: Frame): boolean {
  const time = currentTime(frame)
  return data.after ? time > data.target : time < data.target
}

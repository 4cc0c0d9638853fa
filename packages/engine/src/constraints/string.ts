import { type FieldAccessor, type Frame, readField } from '../frame.js'
import type { ConstraintSpec } from './types.js'

const STARTS = 0
const ENDS = 1
const CONTAINS = 2

export interface StringData {
  /** The field, lowercased already when the constraint is case-insensitive. */
  field: FieldAccessor
  needles: readonly string[]
  mode: number
}

const MODES: Record<string, number> = { STR_STARTS_WITH: STARTS, STR_ENDS_WITH: ENDS, STR_CONTAINS: CONTAINS }

export function compileString({
  operator,
  values,
  caseInsensitive,
  contextName,
  field,
  slots,
}: ConstraintSpec): StringData {
  return {
    field: caseInsensitive ? slots.lowerCased(contextName) : field,
    needles: caseInsensitive ? values.map((v) => v.toLowerCase()) : values,
    mode: MODES[operator]!,
  }
}

/** STR_STARTS_WITH, STR_ENDS_WITH, STR_CONTAINS: any of the values; a missing field is false. */
export function testString(data: StringData, frame: Frame): boolean {
  const value = readField(frame, data.field)
  if (value === undefined) return false
  const needles = data.needles
  for (let i = 0; i < needles.length; i++) {
    const needle = needles[i]!
    if (
      data.mode === CONTAINS
        ? value.includes(needle)
        : data.mode === STARTS
          ? value.startsWith(needle)
          : value.endsWith(needle)
    )
      return true
  }
  return false
}

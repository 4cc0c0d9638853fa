import { type FieldAccessor, type Frame, readField } from '../context.js'

// IN / NOT_IN compare exactly and case-sensitively; `caseInsensitive` is ignored (Node SDK).

export interface MembershipData {
  field: FieldAccessor
  values: Set<string>
}

export function compileMembership(field: FieldAccessor, values: Iterable<string>): MembershipData {
  return { field, values: new Set(values) }
}

/** IN: the field is present and one of the values (an empty list is never). */
export function testIn(data: MembershipData, frame: Frame): boolean {
  const value = readField(frame, data.field)
  return value !== undefined && data.values.has(value)
}

/** NOT_IN: a missing field passes (spec 11). */
export function testNotIn(data: MembershipData, frame: Frame): boolean {
  const value = readField(frame, data.field)
  return value === undefined || !data.values.has(value)
}

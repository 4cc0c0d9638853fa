import type { Frame } from '../frame.js'
import { type Membership, isMember } from '../list-index.js'

// IN / NOT_IN compare exactly and case-sensitively; `caseInsensitive` is ignored (Node SDK).
// The lists live in the slot table's inverted index (`SlotTable.membership` compiles them).

export type MembershipData = Membership

/** IN: the field is present and one of the values (an empty list is never). */
export function testIn(data: MembershipData, frame: Frame): boolean {
  return isMember(data, frame)
}

/** NOT_IN: a missing field passes (spec 11). */
export function testNotIn(data: MembershipData, frame: Frame): boolean {
  return !isMember(data, frame)
}

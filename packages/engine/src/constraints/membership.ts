import type { Membership } from '../list-index.js'

// IN / NOT_IN compare exactly and case-sensitively; `caseInsensitive` is ignored (Node SDK).
// The lists live in the slot table's inverted index (`SlotTable.membership` compiles them); an
// IN is true when the field is present and one of the values (an empty list is never), a NOT_IN
// passes a missing field (spec 11). program.ts tests both.

export type MembershipData = Membership

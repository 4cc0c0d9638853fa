// Lists are inverted at compile time: per field, each value maps to the membership slots of
// the lists that contain it. An evaluation looks the field's value up once, marks those slots,
// and every IN or NOT_IN on that field is then one read; the 200-flag workload tests
// around ninety lists of user ids per context.
import { type FieldAccessor, type Frame, readField } from './frame.js'

/** A list of values that a field is tested against (IN, NOT_IN, userWithId). */
export interface Membership {
  /** Set in a frame once the value of the field has been looked up. */
  readonly looked: number
  /** Set in a frame when the field's value is in the list. */
  readonly slot: number
  readonly index: ListIndex
}

/** Every list tested against one field. */
export interface ListIndex {
  readonly field: FieldAccessor
  readonly looked: number
  /** Each value's newest entry in `entries`; an entry is a slot and the index of the next entry (-1 ends). */
  readonly heads: Map<string, number>
  readonly entries: ListEntries
}

/**
 * The slots of every value in two growing typed arrays: a compact store that the garbage
 * collector never copies (an array per value compiled slower: see `npm run bench -- engine`,
 * "compile 10k flags").
 */
interface ListEntries {
  slots: Int32Array
  next: Int32Array
  length: number
}

export function createListIndex(field: FieldAccessor, looked: number): ListIndex {
  return {
    field,
    looked,
    heads: new Map(),
    entries: { slots: new Int32Array(256), next: new Int32Array(256), length: 0 },
  }
}

function addEntry(entries: ListEntries, slot: number, next: number): number {
  if (entries.length === entries.slots.length) {
    const slots = new Int32Array(entries.length * 2)
    const nexts = new Int32Array(entries.length * 2)
    slots.set(entries.slots)
    nexts.set(entries.next)
    entries.slots = slots
    entries.next = nexts
  }
  entries.slots[entries.length] = slot
  entries.next[entries.length] = next
  return entries.length++
}

/** Files the list `values` under membership slot `slot` of the index. */
export function addList(index: ListIndex, slot: number, values: Iterable<string>): Membership {
  const { heads, entries } = index
  for (const value of values) {
    // A value listed twice gets two entries for the same slot: harmless, and cheaper than a check.
    heads.set(value, addEntry(entries, slot, heads.get(value) ?? -1))
  }
  return { looked: index.looked, slot, index }
}

/** Marks the lists that hold the field's value (a missing field is in none). */
export function lookUp(frame: Frame, index: ListIndex): void {
  const { marks, epoch } = frame
  marks[index.looked] = epoch
  const value = readField(frame, index.field)
  if (value === undefined) return
  const { slots, next } = index.entries
  for (let entry = index.heads.get(value) ?? -1; entry >= 0; entry = next[entry]!) marks[slots[entry]!] = epoch
}

// The compiler's table of what an evaluation may learn: a slot per context field (resolved at
// most once per evaluation, see `frame.ts`), per shared constraint result, and per list
// membership (see `list-index.ts`). One table per full payload; frames are its evaluations.
import { fieldResolver, type TopLevelField, topLevelResolver } from './field-resolvers.js'
import type { FieldAccessor, Frame, Resolver } from './frame.js'
import { type ListIndex, type Membership, addList, createListIndex } from './list-index.js'
import { addBucket, createBucketTable } from './hash.js'
import type { Gate } from './gates.js'
import { createProgram, encodeStrategies } from './program.js'
import type { Context } from './types.js'

export interface SlotTable {
  /** The context field a slot reads (explain names what it saw). */
  fieldName(slot: FieldAccessor): string
  /** A field resolved top-level first, then from `properties`. */
  field(name: string): FieldAccessor
  /** The same field, lowercased (for case-insensitive string operators). */
  lowerCased(name: string): FieldAccessor
  /** userId, sessionId or remoteAddress at the top level only, empty meaning missing. */
  topLevel(name: TopLevelField): FieldAccessor
  /** A new result slot for a constraint shared by several strategies. */
  memo(): number
  /** A list of values that a field is tested against (IN, NOT_IN, userWithId); see `Membership`. */
  membership(field: FieldAccessor, values: Iterable<string>): Membership
  /** Files a bucket (and up to three numbers of its owner's) in the payload's bucket table; returns its offset. */
  bucket(group: string, seed: number, modulus: number, extra?: readonly number[]): number
  /** Encodes a flag's strategies, each a list of gates (program.ts); returns the flag's offset in the code. */
  encode(strategies: ReadonlyArray<readonly Gate[]>): number
  /**
   * Slots and code handed out so far: what starting afresh resets (a recompiled flag leaves its
   * old slots and code unused).
   */
  readonly size: number
  /** Starts an evaluation of `context`. */
  frame(context: Context): Frame
}

export function createSlotTable(): SlotTable {
  const resolvers: Resolver[] = []
  const names: string[] = []
  let memos = 0
  const indexes = new Map<FieldAccessor, ListIndex>()
  let marks = new Uint32Array(0)
  let answers = new Uint8Array(0)
  let values: Array<string | undefined> = []
  let resolved = new Uint32Array(0)
  let epoch = 0
  const buckets = createBucketTable()
  const program = createProgram()

  /** One map per kind of slot, so a lookup never builds a key string. */
  function kind<Name extends string>(makeResolver: (name: Name) => Resolver): (name: Name) => FieldAccessor {
    const slots = new Map<string, FieldAccessor>()
    return (name) => {
      let index = slots.get(name)
      if (index === undefined) {
        index = resolvers.push(makeResolver(name)) - 1
        names[index] = name
        slots.set(name, index)
      }
      return index
    }
  }

  return {
    fieldName: (slot) => names[slot] ?? '',
    field: kind(fieldResolver),
    lowerCased: kind((name: string) => {
      const resolve = fieldResolver(name)
      return (context) => resolve(context)?.toLowerCase()
    }),
    topLevel: kind(topLevelResolver),
    memo: () => memos++,
    membership(field, values) {
      let index = indexes.get(field)
      if (!index) {
        index = createListIndex(field, memos++)
        indexes.set(field, index)
      }
      return addList(index, memos++, values)
    },
    bucket: (group, seed, modulus, extra) => addBucket(buckets, group, seed, modulus, extra),
    encode: (strategies) => encodeStrategies(program, strategies),
    get size() {
      return memos + program.size
    },
    frame(context) {
      if (marks.length < memos || resolved.length < resolvers.length) {
        // Slots were added (a load): new arrays, all unset.
        marks = new Uint32Array(memos)
        answers = new Uint8Array(memos)
        values = new Array<string | undefined>(resolvers.length).fill(undefined)
        resolved = new Uint32Array(resolvers.length)
        epoch = 0
      }
      if (++epoch === 0xffffffff) {
        marks.fill(0)
        resolved.fill(0)
        epoch = 1
      }
      return {
        context,
        values,
        resolved,
        resolvers,
        buckets: buckets.data,
        code: program.code,
        side: program.side,
        marks,
        answers,
        epoch,
        time: undefined,
        usedRandom: false,
        usedClock: false,
        usedCustomStrategy: false,
      }
    },
  }
}

import type { Context } from './types.js'

// Context fields are resolved, and identical constraints evaluated, at most once per
// evaluation: the compiler gives every field and every distinct constraint a slot, and an
// evaluation gets a Frame whose slots fill on first use. Evaluating 200 flags for one context
// reads a handful of distinct fields hundreds of times, and shared segments and common
// constraints (an environment, a date, an app version) recur across flags.

const UNSET: unique symbol = Symbol('unset')

type Resolver = (context: Context) => string | undefined

/** One evaluation: the caller's context plus the field values resolved so far. */
export interface Frame {
  readonly context: Context
  readonly values: Array<string | undefined | typeof UNSET>
  readonly resolvers: readonly Resolver[]
  /** Results of shared constraints: 0 not yet evaluated, 1 true, 2 false. */
  readonly results: Uint8Array
  /** `currentTime` in epoch ms, resolved on first use (NaN when unparseable). */
  time: number | undefined
  /** What the answers depended on besides the context (see `EvaluationTrace`). */
  usedRandom: boolean
  usedClock: boolean
  usedCustomStrategy: boolean
}

/** A context field, compiled to its slot in every frame. */
export type FieldAccessor = number

/** The value of a field in this evaluation, resolved on first read (`undefined` when missing). */
export function readField(frame: Frame, slot: FieldAccessor): string | undefined {
  const value = frame.values[slot]
  if (value !== UNSET) return value
  return (frame.values[slot] = frame.resolvers[slot]!(frame.context))
}

const hasOwn = Object.prototype.hasOwnProperty

/** `String(value)` that never throws (an object with a hostile `toString` is treated as missing). */
export function stringify(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return undefined
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString()
  try {
    return String(value)
  } catch {
    return undefined
  }
}

/** `Number(value)` for strings and numbers, NaN for anything else (`Number(object)` can throw). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string') return Number(value)
  return Number.NaN
}

/**
 * Node SDK semantics (evaluation-semantics.md section 0): the top-level field, else
 * `properties[field]`; null or undefined is missing; anything else is `String()`-ed. Names
 * that exist on `Object.prototype` (`constructor`, `__proto__`...) only read own properties,
 * so a context can never resolve to an inherited function.
 */
function fieldResolver(field: string): Resolver {
  if (field in Object.prototype) {
    return (context) => {
      if (hasOwn.call(context, field)) {
        const value = stringify(context[field])
        if (value !== undefined) return value
      }
      const properties = context.properties
      if (properties !== null && typeof properties === 'object' && hasOwn.call(properties, field)) {
        return stringify(properties[field])
      }
      return undefined
    }
  }
  return (context) => {
    const top = context[field]
    if (typeof top === 'string') return top
    if (top !== undefined && top !== null) return stringify(top)
    const properties = context.properties
    if (properties === null || properties === undefined) return undefined
    return stringify((properties as Record<string, unknown>)[field])
  }
}

/** The top-level value of a well-known field when truthy (Node judges these ids by truthiness). */
function topLevelResolver(field: 'userId' | 'sessionId' | 'remoteAddress'): Resolver {
  return (context) => {
    const value = context[field]
    if (typeof value === 'string') return value === '' ? undefined : value
    if (value === null || value === undefined || value === false || value === 0) return undefined
    return stringify(value)
  }
}

export interface SlotTable {
  /** A field resolved top-level first, then from `properties`. */
  field(name: string): FieldAccessor
  /** The same field, lowercased (for case-insensitive string operators). */
  lowerCased(name: string): FieldAccessor
  /** userId, sessionId or remoteAddress at the top level only, empty meaning missing. */
  topLevel(name: 'userId' | 'sessionId' | 'remoteAddress'): FieldAccessor
  /** A new result slot for a constraint shared by several strategies. */
  memo(): number
  /** Starts an evaluation of `context`. */
  frame(context: Context): Frame
}

export function createSlotTable(): SlotTable {
  const resolvers: Resolver[] = []
  let memos = 0

  /** One map per kind of slot, so a lookup never builds a key string. */
  function kind(makeResolver: (name: string) => Resolver): (name: string) => FieldAccessor {
    const slots = new Map<string, FieldAccessor>()
    return (name) => {
      let index = slots.get(name)
      if (index === undefined) {
        index = resolvers.push(makeResolver(name)) - 1
        slots.set(name, index)
      }
      return index
    }
  }

  return {
    field: kind(fieldResolver),
    lowerCased: kind((name) => {
      const resolve = fieldResolver(name)
      return (context) => resolve(context)?.toLowerCase()
    }),
    topLevel: kind((name) => topLevelResolver(name as 'userId' | 'sessionId' | 'remoteAddress')),
    memo: () => memos++,
    frame: (context) => ({
      context,
      values: new Array(resolvers.length).fill(UNSET),
      resolvers,
      results: new Uint8Array(memos),
      time: undefined,
      usedRandom: false,
      usedClock: false,
      usedCustomStrategy: false,
    }),
  }
}

/** The frame's `currentTime` in epoch ms: now when absent, NaN when unparseable. */
export function currentTime(frame: Frame): number {
  if (frame.time !== undefined) return frame.time
  const value = frame.context.currentTime
  let time: number
  if (value === undefined || value === null) {
    time = Date.now()
    frame.usedClock = true
  }
  else if (value instanceof Date) time = value.getTime()
  else if (typeof value === 'string' || typeof value === 'number') time = new Date(value).getTime()
  else time = Number.NaN
  return (frame.time = time)
}

// Context fields are resolved, and identical constraints evaluated, at most once per
// evaluation: the compiler gives every field and every distinct constraint a slot (see
// `slot-table.ts`), and an evaluation gets a Frame whose slots fill on first use. Evaluating
// 200 flags for one context reads a handful of distinct fields hundreds of times, and shared
// segments and common constraints (an environment, a date, an app version) recur across flags.
import type { Context } from './types.js'

/** Reads one field of a context (compiled once per field name; see `field-resolvers.ts`). */
export type Resolver = (context: Context) => string | undefined

/** A context field, compiled to its slot in every frame. */
export type FieldAccessor = number

/** One evaluation: the caller's context plus the field values resolved so far. */
export interface Frame {
  readonly context: Context
  /**
   * Field values resolved in this evaluation: `values[slot]` holds one when `resolved[slot]`
   * equals `epoch`. Like `marks`, the arrays belong to the slot table and serve every evaluation
   * (a fresh array per evaluation was a visible share of a single-flag isEnabled: see
   * `npm run bench -- engine`, "isEnabled, one flag").
   */
  readonly values: Array<string | undefined>
  readonly resolved: Uint32Array
  readonly resolvers: readonly Resolver[]
  /** The payload's bucket table (hash.ts): every rollout's and variant set's bucket. */
  readonly buckets: Float64Array
  /** The payload's encoded strategies and their gates' data (program.ts). */
  readonly code: Int32Array
  readonly side: readonly unknown[]
  /**
   * What this evaluation knows, a slot each: a slot is set when its mark equals `epoch`. Shared
   * constraints keep their result in `answers`; list memberships are the mark alone (see
   * `Membership`). The arrays belong to the slot table and serve every evaluation, each with a
   * new epoch, so starting one costs no allocation and no clearing (a fresh typed array per
   * evaluation would cost more than a whole single-flag isEnabled). An evaluation nested
   * in another (a custom strategy calling the engine) takes a new epoch: the outer one only loses
   * what it knew and computes it again.
   */
  readonly marks: Uint32Array
  readonly answers: Uint8Array
  readonly epoch: number
  /** `currentTime` in epoch ms, resolved on first use (NaN when unparseable). */
  time: number | undefined
  /** What the answers depended on besides the context (see `EvaluationTrace`). */
  usedRandom: boolean
  usedClock: boolean
  usedCustomStrategy: boolean
}

/** The value of a field in this evaluation, resolved on first read (`undefined` when missing). */
export function readField(frame: Frame, slot: FieldAccessor): string | undefined {
  if (frame.resolved[slot] === frame.epoch) return frame.values[slot]
  const value = frame.resolvers[slot]!(frame.context)
  frame.values[slot] = value
  frame.resolved[slot] = frame.epoch
  return value
}

/** The frame's `currentTime` in epoch ms: now when absent, NaN when unparseable. */
export function currentTime(frame: Frame): number {
  if (frame.time !== undefined) return frame.time
  const value = frame.context.currentTime
  let time: number
  if (value === undefined || value === null) {
    time = Date.now()
    frame.usedClock = true
  } else if (value instanceof Date) time = value.getTime()
  else if (typeof value === 'string' || typeof value === 'number') time = new Date(value).getTime()
  else time = Number.NaN
  return (frame.time = time)
}

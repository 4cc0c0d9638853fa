import { type Frame, readField } from '../frame.js'
import { EXTRA, bucketAt } from '../hash.js'

// The rollout tests shared by gradualRollout* and flexibleRollout (docs/evaluation.md 1-2):
// on when the stickiness value's bucket (1..100) in the group is within the percentage.
//
// A rollout is a record in the payload's bucket table (hash.ts): its group's bucket, then its
// percentage, its stickiness field and, for `default` stickiness, the fallback field (-1 otherwise).
// The gate holds the record's offset.

const PERCENTAGE = EXTRA
const FIELD = EXTRA + 1
const FALLBACK = EXTRA + 2

/** The numbers a rollout keeps beside its bucket, in its record's order. */
export function rolloutExtra(percentage: number, field: number, fallback: number): number[] {
  return [percentage, field, fallback]
}

/** A rollout's record, read back (explain): its percentage, stickiness field and fallback (-1: none). */
export function rolloutRecord(
  table: Float64Array,
  at: number,
): { percentage: number; field: number; fallback: number } {
  return { percentage: table[at + PERCENTAGE]!, field: table[at + FIELD]!, fallback: table[at + FALLBACK]! }
}

// A bucket is 1..100, so a rollout of 100 % or more passes whatever the bucket: it is not
// computed (a full rollout is the strategy Unleash gives a new environment, and common), and a
// `default` one with no ids draws no random number, so its answer stays cacheable.

/** A named stickiness field: a missing or empty value is off (spec 10, 12). */
export function testRolloutField(at: number, frame: Frame): boolean {
  const table = frame.buckets
  const id = readField(frame, table[at + FIELD]!)
  if (id === undefined || id === '') return false
  const percentage = table[at + PERCENTAGE]!
  return percentage >= 100 || bucketAt(table, at, id) <= percentage
}

/** `default` stickiness: userId, else sessionId, else a random bucket. */
export function testRolloutDefault(at: number, frame: Frame): boolean {
  const table = frame.buckets
  const percentage = table[at + PERCENTAGE]!
  if (percentage >= 100) return true
  const id = readField(frame, table[at + FIELD]!) ?? readField(frame, table[at + FALLBACK]!)
  return (id === undefined ? randomBucket(frame) : bucketAt(table, at, id)) <= percentage
}

/** `random` stickiness and gradualRolloutRandom: on with probability `percentage` %. */
export function testRolloutRandom(percentage: number, frame: Frame): boolean {
  return percentage >= 100 || randomBucket(frame) <= percentage
}

function randomBucket(frame: Frame): number {
  frame.usedRandom = true
  return 1 + Math.floor(Math.random() * 100)
}

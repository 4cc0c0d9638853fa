import { type FieldAccessor, type Frame, readField } from '../frame.js'
import { type Bucketer, bucketOf } from '../hash.js'

// The rollout tests shared by gradualRollout* and flexibleRollout (docs/evaluation.md 1-2):
// on when the stickiness value's bucket (1..100) in the group is within the percentage.

export interface RolloutData {
  bucket: Bucketer
  percentage: number
  /** The stickiness field; for `default` stickiness, userId. */
  field: FieldAccessor
  /** For `default` stickiness, sessionId; -1 otherwise. */
  fallback: FieldAccessor
}

/** A named stickiness field: a missing or empty value is off (spec 10, 12). */
export function testRolloutField(data: RolloutData, frame: Frame): boolean {
  const id = readField(frame, data.field)
  return id !== undefined && id !== '' && bucketOf(data.bucket, id) <= data.percentage
}

/** `default` stickiness: userId, else sessionId, else a random bucket. */
export function testRolloutDefault(data: RolloutData, frame: Frame): boolean {
  const id = readField(frame, data.field) ?? readField(frame, data.fallback)
  return (id === undefined ? randomBucket(frame) : bucketOf(data.bucket, id)) <= data.percentage
}

/** `random` stickiness and gradualRolloutRandom: on with probability `percentage` %. */
export function testRolloutRandom(percentage: number, frame: Frame): boolean {
  return randomBucket(frame) <= percentage
}

function randomBucket(frame: Frame): number {
  frame.usedRandom = true
  return 1 + Math.floor(Math.random() * 100)
}

import { readField } from '../frame.js'
import { compileRangeMatcher } from '../ip.js'
import type { ConstraintSpec, Predicate } from './types.js'

/** IN_CIDR: the context value is a valid address inside any valid range of the same family. */
export function compileCidr({ values, field, caches }: ConstraintSpec): Predicate {
  const inRange = compileRangeMatcher(values, caches.addresses)
  return (frame) => {
    const address = readField(frame, field)
    return address !== undefined && inRange(address)
  }
}

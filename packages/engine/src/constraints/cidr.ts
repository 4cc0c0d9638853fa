import { readField } from '../frame.js'
import { compileRangeMatcher } from '../ip.js'
import type { Warn } from '../warnings.js'
import type { ConstraintSpec, Predicate } from './types.js'

/** `"a"`, or `"a", "b"`: the entries a warning names. */
export function quoteEntries(entries: readonly string[]): string {
  return entries.map((entry) => JSON.stringify(entry)).join(', ')
}

/**
 * IN_CIDR: the context value is a valid address inside any valid range of the same family. An
 * entry that is neither an address nor a range is skipped (the others still work), with a warning;
 * with none left the constraint is false (true when inverted).
 */
export function compileCidr(
  { operator, contextName, values, inverted, field, caches }: ConstraintSpec,
  warn: Warn,
): Predicate {
  const skipped: string[] = []
  const inRange = compileRangeMatcher(values, caches.addresses, (entry) => skipped.push(entry))
  if (skipped.length > 0) {
    const noun =
      skipped.length === 1
        ? 'is not an IP address or CIDR range; it is skipped'
        : 'are not IP addresses or CIDR ranges; they are skipped'
    const outcome =
      skipped.length < values.length
        ? ''
        : inverted
          ? '; the inverted constraint always matches'
          : '; the constraint never matches'
    warn('invalid-cidr', `${operator} on "${contextName}": ${quoteEntries(skipped)} ${noun}${outcome}`)
  }
  return (frame) => {
    const address = readField(frame, field)
    return address !== undefined && inRange(address)
  }
}

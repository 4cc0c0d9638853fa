import { readField } from '../frame.js'
import { PREDICATE, gate, neverGate } from '../gates.js'
import { compileRangeMatcher } from '../ip.js'
import { quoteEntries } from '../constraints/cidr.js'
import { listParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

/**
 * remoteAddress: the context's remoteAddress equals an entry of `IPs`, or lies in one of its
 * ranges. IPv4 and IPv6 ranges both work (the Node SDK only does IPv4 ranges); invalid entries
 * are skipped without breaking the others (spec 06), with a warning: like the Node SDK, such an
 * entry still matches a remoteAddress of exactly its text.
 */
export const compileRemoteAddress: StrategyCompiler = ({ parameters, slots, caches, warn }) => {
  const entries = listParameter(parameters.IPs)
  if (entries.length === 0) return neverGate()
  const exact = new Set(entries)
  const skipped: string[] = []
  const inRange = compileRangeMatcher(entries, caches.addresses, (entry) => skipped.push(entry))
  if (skipped.length > 0) {
    const noun = skipped.length === 1 ? 'is not an IP address or CIDR range' : 'are not IP addresses or CIDR ranges'
    warn('invalid-cidr', `IPs ${quoteEntries(skipped)} ${noun}; only a remoteAddress of exactly that text matches`)
  }
  const field = slots.topLevel('remoteAddress')
  return gate(PREDICATE, (frame) => {
    const address = readField(frame, field)
    return address !== undefined && (exact.has(address) || inRange(address))
  })
}

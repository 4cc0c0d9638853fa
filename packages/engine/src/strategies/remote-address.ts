import { readField } from '../frame.js'
import { PREDICATE, gate, neverGate } from '../gates.js'
import { compileRangeMatcher } from '../ip.js'
import { listParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

/**
 * remoteAddress: the context's remoteAddress equals an entry of `IPs`, or lies in one of its
 * ranges. IPv4 and IPv6 ranges both work (the Node SDK only does IPv4 ranges); invalid entries
 * are skipped without breaking the others (spec 06).
 */
export const compileRemoteAddress: StrategyCompiler = ({ parameters, slots, caches }) => {
  const entries = listParameter(parameters.IPs)
  if (entries.length === 0) return neverGate()
  const exact = new Set(entries)
  const inRange = compileRangeMatcher(entries, caches.addresses)
  const field = slots.topLevel('remoteAddress')
  return gate(PREDICATE, (frame) => {
    const address = readField(frame, field)
    return address !== undefined && (exact.has(address) || inRange(address))
  })
}

import ipaddr from 'ipaddr.js'
import { type ParseCache, parseCached } from './parse-cache.js'

/** A parsed address or subnet: family, address bytes and prefix length. */
export interface IpRange {
  family: 'ipv4' | 'ipv6'
  bytes: number[]
  prefix: number
}

/**
 * Parses an address strictly, as the Node SDK's `ip-address` does: dotted-quad decimal IPv4 only
 * (no `127.1`, hex or octal forms), any valid IPv6. An IPv4-mapped IPv6 address stays IPv6.
 */
export function parseAddress(text: string): IpRange | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) {
    return { family: 'ipv4', bytes: ipaddr.IPv4.parse(text).toByteArray(), prefix: 32 }
  }
  if (ipaddr.IPv6.isValid(text)) {
    return { family: 'ipv6', bytes: ipaddr.IPv6.parse(text).toByteArray(), prefix: 128 }
  }
  return undefined
}

/** Parses `a.b.c.d`, `a.b.c.d/n`, an IPv6 address or an IPv6 CIDR; host bits are allowed. */
function parseRange(text: string): IpRange | undefined {
  const slash = text.indexOf('/')
  if (slash === -1) return parseAddress(text)
  const address = parseAddress(text.slice(0, slash))
  const bits = text.slice(slash + 1)
  if (!address || !/^\d{1,3}$/.test(bits)) return undefined
  const prefix = Number(bits)
  if (prefix > address.prefix) return undefined
  return { ...address, prefix }
}

function rangeContains(range: IpRange, address: IpRange): boolean {
  if (range.family !== address.family) return false
  let bits = range.prefix
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff
    if ((range.bytes[i]! & mask) !== (address.bytes[i]! & mask)) return false
  }
  return true
}

/**
 * Returns `address => whether it is inside any of the ranges`; invalid entries are skipped, each
 * passed to `skipped` (the load warns). Context addresses are parsed through the engine's cache
 * (they repeat across flags and requests).
 */
export function compileRangeMatcher(
  entries: readonly string[],
  addresses: ParseCache<IpRange>,
  skipped: (entry: string) => void,
): (address: string) => boolean {
  const ranges: IpRange[] = []
  for (const entry of entries) {
    const range = parseRange(entry)
    if (range) ranges.push(range)
    else skipped(entry)
  }
  if (ranges.length === 0) return () => false
  return (text) => {
    const address = parseCached(addresses, text)
    if (!address) return false
    for (const range of ranges) if (rangeContains(range, address)) return true
    return false
  }
}

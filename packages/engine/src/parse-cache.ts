// Context values that need parsing (app versions, remote addresses) repeat across the flags of
// one evaluation and across requests, so their parses are kept, a bounded number per engine.
// Each engine owns its caches (created in createEngine, handed to the compiler): nothing is
// shared between engines or kept at module level.
import type { SemVer } from 'semver'
import type { IpRange } from './ip.js'

const CACHE_LIMIT = 1000

/** Parses of one kind of value; `null` caches "unparseable". */
export interface ParseCache<T> {
  readonly parsed: Map<string, T | null>
  readonly parse: (text: string) => T | null
}

/** The parse caches of one engine. */
export interface ParseCaches {
  /** Context versions for the SEMVER_* operators. */
  readonly versions: ParseCache<SemVer>
  /** Context addresses for IN_CIDR and the remoteAddress strategy. */
  readonly addresses: ParseCache<IpRange>
}

export function createParseCache<T>(parse: (text: string) => T | null): ParseCache<T> {
  return { parsed: new Map(), parse }
}

export function parseCached<T>(cache: ParseCache<T>, text: string): T | null {
  let value = cache.parsed.get(text)
  if (value === undefined) {
    value = cache.parse(text)
    // Cleared rather than evicted one by one: cheap, and a working set under the limit refills at once.
    if (cache.parsed.size >= CACHE_LIMIT) cache.parsed.clear()
    cache.parsed.set(text, value)
  }
  return value
}

// Answers to repeated identical requests. Frontend SDKs poll with the same context every few
// seconds, so most `/proxy` requests repeat one seen moments ago. An answer is kept only when
// the engine says it depended on nothing but the request (no randomness, no custom strategy)
// and, when it read the clock, only until the next DATE constraint instant. Each flag set has its
// own cache (scope/flag-set.ts), so an answer never outlives its payload. Eviction is first-in
// first-out, bounded by entries. An answer is admitted on its key's second sight: traffic that
// never repeats (every request a new user) costs a set lookup and an insert, not an answer's
// insert and eviction, and cannot push out the answers that do repeat. Keys seen once are kept
// in two generations of half the cache's size each, the older dropped whole when the newer
// fills: no per-key eviction (a set trimmed key by key measured 4% of a new-user request).
import type { CorsHeaders } from '../http/cors.js'

export interface CachedResponse {
  /**
   * The body: the string as an evaluation made it (written once, with the headers, in one
   * write), turned into UTF-8 bytes when the cache admits it (written without re-encoding on
   * every request).
   */
  body: string | Buffer
  /** The body's length in bytes. */
  bytes: number
  etag: string
  /** Epoch ms after which the answer may be different (Infinity when it never will). */
  validUntil: number
  /** For lookups (POST with toggles): each listed toggle's enabled state, for usage metrics. */
  counted?: ReadonlyArray<readonly [string, boolean]>
  /** Compressed bodies, made on first request per encoding. */
  compressed?: Partial<Record<'br' | 'gzip' | 'deflate', Buffer>>
  /** The uncompressed answer's header list, for the CORS headers (by identity) it was built with. */
  head?: { cors: CorsHeaders; headers: Record<string, string> }
}

/** Bodies larger than this are not kept (they are rare, and would crowd the cache out). */
const MAX_BODY_BYTES = 256 * 1024
/** The most body bytes kept in all (compressed forms not counted). */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024

export interface ResponseCache {
  /** `now` is asked only of answers that expire. */
  get(key: string, now: () => number): CachedResponse | undefined
  set(key: string, response: CachedResponse): void
  readonly size: number
}

export function createResponseCache(maxEntries: number): ResponseCache {
  const entries = new Map<string, CachedResponse>()
  /** Keys seen once and not admitted yet: at most as many as the cache holds answers. */
  const generation = Math.max(1, Math.ceil(maxEntries / 2))
  let seenRecently = new Set<string>()
  let seenBefore = new Set<string>()
  /** Whether the key was seen once already; remembers it otherwise. */
  const seenOnce = (key: string): boolean => {
    if (seenRecently.delete(key) || seenBefore.delete(key)) return true
    if (seenRecently.size >= generation) {
      seenBefore = seenRecently
      seenRecently = new Set()
    }
    seenRecently.add(key)
    return false
  }
  let bytes = 0
  const remove = (key: string, entry: CachedResponse) => {
    entries.delete(key)
    bytes -= entry.bytes
  }
  return {
    get(key, now) {
      const hit = entries.get(key)
      if (hit === undefined) return undefined
      if (hit.validUntil !== Number.POSITIVE_INFINITY && hit.validUntil <= now()) {
        remove(key, hit)
        return undefined
      }
      return hit
    },
    set(key, response) {
      if (maxEntries <= 0 || response.bytes > MAX_BODY_BYTES || entries.has(key)) return
      if (!seenOnce(key)) return
      while (entries.size > 0 && (entries.size >= maxEntries || bytes + response.bytes > MAX_TOTAL_BYTES)) {
        const [oldest, entry] = entries.entries().next().value!
        remove(oldest, entry)
      }
      if (typeof response.body === 'string') response.body = Buffer.from(response.body)
      entries.set(key, response)
      bytes += response.bytes
    },
    get size() {
      return entries.size
    },
  }
}

// Answers to repeated identical requests. Frontend SDKs poll with the same context every few
// seconds, so most evaluation requests repeat one seen moments ago. An answer is kept only when
// the engine says it depended on nothing but the request (no randomness, no custom strategy)
// and, when it read the clock, only until the next DATE constraint instant.
//
// What a caller sends decides the keys, and the credentials that reach these routes are public
// (a client key, a frontend token), so everything here is bounded in bytes, process-wide
// (docs/security.md, "What a caller can grow"):
// - a key has a bounded size: a request's raw part (query string or body) longer than
//   MAX_RAW_KEY_CHARS is replaced by its SHA-256 digest;
// - one budget (RESPONSE_CACHE_MAX_MB, RESPONSE_CACHE_SIZE) holds every flag set's answers, their
//   keys, their compressed forms and a per-entry overhead; the oldest answer of any flag set goes
//   first (first-in first-out), so one scope's traffic cannot pin memory beside another's;
// - an answer is admitted on its key's second sight, so traffic that never repeats (every request
//   a new user) costs a set lookup and an insert, not an answer's insert and eviction. Keys seen
//   once are kept in two generations, each bounded in keys and bytes, the older dropped whole
//   when the newer fills (no per-key eviction on the hot path).
// A flag set's answers are dropped when a newer set replaces it (`retire`), so an answer never
// outlives its payload.
import { createHash } from 'node:crypto'
import type { AppRegistration } from '@vexil/sync'
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
  /** The caller's app as its request named it (OFREP's bulk), registered on every answer: one object, so a repeat costs a lookup. */
  registration?: AppRegistration
  /** Compressed bodies, made on first request per encoding (see `compressedBody`). */
  compressed?: Partial<Record<'br' | 'gzip' | 'deflate', Buffer>>
  /** The uncompressed answer's header list, for the CORS headers (by identity) it was built with. */
  head?: { cors: CorsHeaders; headers: Record<string, string> }
  /** Set by the cache that admitted the answer: asks it for room for `bytes` more (a compressed form). */
  grow?: (bytes: number) => boolean
}

export interface ResponseCacheLimits {
  /** The most answers kept, every flag set together (RESPONSE_CACHE_SIZE); 0 turns caching off. */
  maxEntries: number
  /** The most bytes kept, every flag set together (RESPONSE_CACHE_MAX_MB): keys, bodies, compressed forms, overhead. */
  maxBytes: number
}

/** A flag set's answers: a part of the process-wide cache. */
export interface ResponseCache {
  /** `now` is asked only of answers that expire. */
  get(key: string, now: () => number): CachedResponse | undefined
  set(key: string, response: CachedResponse): void
  /** Drops this set's answers and admits no more (a newer flag set replaced it). */
  retire(): void
  /** This set's answers. */
  readonly size: number
}

/** The process-wide cache; each flag set takes its part with `forFlagSet`. */
export interface ResponseCaches {
  forFlagSet(): ResponseCache
  /** Answers kept, every flag set together. */
  readonly entries: number
  /** Bytes counted against RESPONSE_CACHE_MAX_MB (answers, keys, compressed forms, overhead). */
  readonly bytes: number
  /** Bytes held by keys seen once and not admitted yet. */
  readonly seenBytes: number
}

/** A raw part (query string or body) longer than this is keyed by its digest. */
export const MAX_RAW_KEY_CHARS = 512
/** Bodies larger than this are not kept (they are rare, and would crowd the cache out). */
const MAX_BODY_BYTES = 256 * 1024
/** Counted for each entry beside its key and body: the map slot, the entry object, its header list. */
const ENTRY_OVERHEAD_BYTES = 512
/** Counted for each key seen once beside its characters. */
const SEEN_OVERHEAD_BYTES = 64
/** Each of the two generations of keys seen once holds at most this many bytes. */
const SEEN_GENERATION_BYTES = 1024 * 1024

/**
 * The cache key of a request: its protocol's `space` (a constant of the route, e.g. `G|` for
 * `GET /proxy`), the caller's address, and the raw query string or body, or that raw part's
 * SHA-256 when it is long. Lengths and markers keep the encoding injective: no two requests
 * that differ share a key, whatever the address or the raw part hold.
 */
export function answerKey(space: string, address: string | undefined, raw: string): string {
  const from = address ?? ''
  if (raw.length <= MAX_RAW_KEY_CHARS) return `${space}${from.length}:${from}=${raw}`
  return `${space}${from.length}:${from}#${createHash('sha256').update(raw).digest('base64')}`
}

/** Bytes a string key holds (V8 keeps a string in one or two bytes a character). */
const keyBytes = (key: string) => key.length * 2

/** The strings an answer's registration holds beside its body (OFREP's bulk: the caller's app). */
const registrationBytes = (registration: AppRegistration | undefined) =>
  registration
    ? (registration.appName.length + registration.instanceId.length + (registration.environment?.length ?? 0)) * 2
    : 0

interface Entry {
  readonly answer: CachedResponse
  readonly part: Part
  /** Key, body, compressed forms and overhead. */
  cost: number
}

interface Part {
  /** Keys of this set's answers in the shared map. */
  readonly keys: Set<string>
  readonly prefix: string
  retired: boolean
}

/** The process's response cache; undefined when either limit is 0 (caching off). */
export function createResponseCaches(limits: ResponseCacheLimits): ResponseCaches | undefined {
  const { maxEntries, maxBytes } = limits
  if (maxEntries <= 0 || maxBytes <= 0) return undefined
  /** Every flag set's answers, by part prefix + key; Map order is insertion order, so the oldest come first. */
  const entries = new Map<string, Entry>()
  let bytes = 0
  let parts = 0

  const generationKeys = Math.max(1, Math.ceil(maxEntries / 2))
  const generationBytes = Math.min(SEEN_GENERATION_BYTES, Math.max(4096, Math.floor(maxBytes / 16)))
  let seenRecently = new Set<string>()
  let seenRecentlyBytes = 0
  let seenBefore = new Set<string>()
  let seenBeforeBytes = 0
  /** Whether the key was seen once already; remembers it otherwise. */
  const seenOnce = (key: string): boolean => {
    if (seenRecently.delete(key)) {
      seenRecentlyBytes -= keyBytes(key) + SEEN_OVERHEAD_BYTES
      return true
    }
    if (seenBefore.delete(key)) {
      seenBeforeBytes -= keyBytes(key) + SEEN_OVERHEAD_BYTES
      return true
    }
    const cost = keyBytes(key) + SEEN_OVERHEAD_BYTES
    if (seenRecently.size >= generationKeys || seenRecentlyBytes + cost > generationBytes) {
      seenBefore = seenRecently
      seenBeforeBytes = seenRecentlyBytes
      seenRecently = new Set()
      seenRecentlyBytes = 0
    }
    seenRecently.add(key)
    seenRecentlyBytes += cost
    return false
  }

  const remove = (key: string, entry: Entry) => {
    entries.delete(key)
    entry.part.keys.delete(key)
    bytes -= entry.cost
    entry.answer.grow = undefined
  }
  /**
   * Evicts the oldest answers of any set until `cost` more bytes (and, for a new entry, one more
   * entry) fit, never `keep`; false when they cannot.
   */
  const makeRoom = (cost: number, newEntry: boolean, keep?: Entry): boolean => {
    if (cost > maxBytes) return false
    while (entries.size > 0 && ((newEntry && entries.size >= maxEntries) || bytes + cost > maxBytes)) {
      const [oldest, entry] = entries.entries().next().value!
      if (entry === keep) return false
      remove(oldest, entry)
    }
    return true
  }

  function forFlagSet(): ResponseCache {
    const part: Part = { keys: new Set(), prefix: `${(parts++).toString(36)}/`, retired: false }
    return {
      get(key, now) {
        const full = part.prefix + key
        const hit = entries.get(full)
        if (hit === undefined) return undefined
        const answer = hit.answer
        if (answer.validUntil !== Number.POSITIVE_INFINITY && answer.validUntil <= now()) {
          remove(full, hit)
          return undefined
        }
        return answer
      },
      set(key, response) {
        if (part.retired || response.bytes > MAX_BODY_BYTES) return
        const full = part.prefix + key
        if (entries.has(full) || !seenOnce(full)) return
        const cost = keyBytes(full) + response.bytes + ENTRY_OVERHEAD_BYTES + registrationBytes(response.registration)
        if (!makeRoom(cost, true)) return
        if (typeof response.body === 'string') response.body = Buffer.from(response.body)
        const entry: Entry = { answer: response, part, cost }
        // A compressed form made later is counted too, or not kept when it does not fit.
        response.grow = (more) => {
          if (entries.get(full) !== entry) return false
          // Moved to the newest place first, so making room evicts others before it.
          entries.delete(full)
          entries.set(full, entry)
          if (!makeRoom(more, false, entry)) return false
          entry.cost += more
          bytes += more
          return true
        }
        entries.set(full, entry)
        part.keys.add(full)
        bytes += cost
      },
      retire() {
        part.retired = true
        for (const full of part.keys) {
          const entry = entries.get(full)
          if (entry) remove(full, entry)
        }
        part.keys.clear()
      },
      get size() {
        return part.keys.size
      },
    }
  }

  return {
    forFlagSet,
    get entries() {
      return entries.size
    },
    get bytes() {
      return bytes
    },
    get seenBytes() {
      return seenRecentlyBytes + seenBeforeBytes
    },
  }
}

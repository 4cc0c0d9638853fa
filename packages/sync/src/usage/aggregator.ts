// Usage counts a proxy reports upstream, as the old proxy counted them (section 5.3): lookups
// (POST with a toggles list) count yes/no per listed toggle, and client SDK metrics posted to
// the proxy are merged in, under the posting SDK's own app when it says which (so the upstream
// sees every app behind the proxy), with the SDKs' registrations. Counts that fail to send are
// merged back into the next bucket.
//
// Bounded, as any client-key holder may post (app-limits.ts): flags the current payload has are
// counted, and per bucket at most MAX_UNKNOWN_FLAGS names it lacks (Unleash's unknown flags),
// without variants; per flag, the variant names it defines (and `disabled`) plus at most
// MAX_OTHER_VARIANTS other names of at most MAX_VARIANT_NAME_LENGTH characters; per-app counts
// up to MAX_APPS apps and MAX_APP_COUNT_BYTES, past which they are counted as the proxy's own;
// every count stops at Number.MAX_SAFE_INTEGER (beyond it JSON numbers lose precision).
import {
  appKey,
  COUNT_OVERHEAD_BYTES,
  isKeepable,
  MAX_APP_COUNT_BYTES,
  MAX_APPS,
  MAX_NAME_LENGTH,
  MAX_UNKNOWN_FLAGS,
} from './app-limits.js'
import type { AppIdentity, AppRegistration, MetricsBucket, ToggleBucket, UsageBuckets } from './metrics-bucket.js'
import { createRegistrations } from './registrations.js'
import { createServedTokens } from './served-tokens.js'

export const MAX_OTHER_VARIANTS = 50
export const MAX_VARIANT_NAME_LENGTH = 100

/** `others`: how many of `variants` the flag does not define. */
type ToggleCounts = { yes: number; no: number; variants: Record<string, number>; others: number }
type Table = Map<string, ToggleCounts>
type PostedCounts = Record<string, { yes?: number; no?: number; variants?: Record<string, number> }>

/** What was dropped over a bound since the aggregator was made (for the operator's metrics). */
export interface UsageDrops {
  unknownFlags: number
  registrations: number
  /** Counts kept, but as the proxy's own rather than their app's. */
  unattributed: number
}

export interface UsageAggregator extends UsageBuckets {
  count(name: string, enabled: boolean): void
  /** Merges toggle counts posted by a client SDK, under `app` when known. */
  merge(toggles: PostedCounts, app?: AppIdentity): void
  /** Keeps an SDK's registration for the next report; an implied one (from a frontend SDK's metrics) never replaces a posted one. */
  register(registration: AppRegistration, implied?: boolean): void
  /** A token the upstream validated served a request: reported (hashed) with the next bucket. */
  served(secret: string): void
  readonly isEmpty: boolean
  readonly dropped: Readonly<UsageDrops>
}

export interface UsageAggregatorOptions {
  /** The variant names counted for a flag, or undefined when the current payload has no such flag. */
  countedVariants: (name: string) => ReadonlySet<string> | undefined
  now?: () => Date
}

const NONE: ReadonlySet<string> = new Set()

/** Adds without passing the largest integer JSON carries exactly. */
const sum = (a: number, b: number) => Math.min(a + b, Number.MAX_SAFE_INTEGER)

export function createUsageAggregator(options: UsageAggregatorOptions): UsageAggregator {
  const { countedVariants, now = () => new Date() } = options
  let start = now()
  let own: Table = new Map()
  let apps = new Map<string, { identity: AppIdentity; toggles: Table }>()
  let appBytes = 0
  let unknown = new Set<string>()
  let registrations = createRegistrations()
  const served = createServedTokens()
  const dropped: UsageDrops = { unknownFlags: 0, registrations: 0, unattributed: 0 }

  /** The variants counted for `name`, NONE for an admitted unknown name, undefined when it is dropped. */
  const admit = (name: string): ReadonlySet<string> | undefined => {
    const defined = countedVariants(name)
    if (defined) return defined
    if (!unknown.has(name)) {
      if (name.length > MAX_NAME_LENGTH || unknown.size >= MAX_UNKNOWN_FLAGS) {
        dropped.unknownFlags++
        return undefined
      }
      unknown.add(name)
    }
    return NONE
  }

  /** The counts of `name` in `app`'s table, or in the proxy's own when the app's bounds are reached. */
  const entry = (name: string, app: AppIdentity | undefined): ToggleCounts => {
    const table = app ? appTable(app, name) : own
    let counts = table.get(name)
    if (!counts)
      table.set(name, (counts = { yes: 0, no: 0, variants: Object.create(null) as Record<string, number>, others: 0 }))
    return counts
  }
  const appTable = (app: AppIdentity, name: string): Table => {
    const key = appKey(app)
    let kept = apps.get(key)
    if (kept?.toggles.has(name)) return kept.toggles
    const cost = name.length + COUNT_OVERHEAD_BYTES + (kept ? 0 : key.length + COUNT_OVERHEAD_BYTES)
    if ((!kept && (apps.size >= MAX_APPS || !isKeepable(app))) || appBytes + cost > MAX_APP_COUNT_BYTES) {
      dropped.unattributed++
      return own
    }
    if (!kept) apps.set(key, (kept = { identity: { ...app }, toggles: new Map() }))
    appBytes += cost
    return kept.toggles
  }

  const add = (name: string, posted: PostedCounts[string], app: AppIdentity | undefined) => {
    const defined = admit(name)
    if (!defined) return
    const counts = entry(name, app)
    counts.yes = sum(counts.yes, posted.yes ?? 0)
    counts.no = sum(counts.no, posted.no ?? 0)
    // A name the payload lacks is reported by name only: its variants are not kept.
    if (!posted.variants || defined === NONE) return
    for (const [variant, n] of Object.entries(posted.variants)) {
      const seen = counts.variants[variant]
      if (seen === undefined && !defined.has(variant)) {
        if (counts.others >= MAX_OTHER_VARIANTS || variant.length > MAX_VARIANT_NAME_LENGTH) continue
        counts.others++
      }
      counts.variants[variant] = sum(seen ?? 0, n)
    }
  }
  const merge = (posted: PostedCounts, app?: AppIdentity) => {
    for (const [name, counts] of Object.entries(posted)) add(name, counts, app)
  }
  const register = (registration: AppRegistration, implied?: boolean) => {
    if (registrations.add(registration, implied) === 'dropped') dropped.registrations++
  }
  const isEmpty = () => own.size === 0 && apps.size === 0 && registrations.size === 0 && served.size === 0

  return {
    count(name, enabled) {
      if (!countedVariants(name)) return
      const counts = entry(name, undefined)
      if (enabled) counts.yes = sum(counts.yes, 1)
      else counts.no = sum(counts.no, 1)
    },
    merge,
    register,
    served: (secret) => served.add(secret),
    take(stop) {
      if (isEmpty()) {
        start = stop
        return undefined
      }
      const bucket: MetricsBucket = { start: start.toISOString(), stop: stop.toISOString(), toggles: bucketOf(own) }
      if (apps.size > 0)
        bucket.apps = [...apps.values()].map(({ identity, toggles }) => ({ ...identity, toggles: bucketOf(toggles) }))
      if (registrations.size > 0) bucket.applications = registrations.take()
      if (served.size > 0) bucket.servedTokens = served.take()
      own = new Map()
      apps = new Map()
      appBytes = 0
      unknown = new Set()
      registrations = createRegistrations()
      start = stop
      return bucket
    },
    restore(bucket) {
      // Admitted when counted, but capped again: while the upstream is down (or as a cluster's
      // workers hand theirs in), restored buckets must not pile up names past the bounds.
      merge(bucket.toggles)
      for (const app of bucket.apps ?? []) merge(app.toggles, app)
      for (const registration of bucket.applications ?? []) register(registration, true)
      served.restore(bucket.servedTokens ?? [])
      const failedStart = new Date(bucket.start)
      if (failedStart < start) start = failedStart
    },
    get isEmpty() {
      return isEmpty()
    },
    dropped,
  }
}

// --- Internal helpers ---

function bucketOf(table: Table): ToggleBucket {
  return Object.fromEntries(
    [...table].map(([name, c]) => [name, { yes: c.yes, no: c.no, variants: { ...c.variants } }]),
  )
}

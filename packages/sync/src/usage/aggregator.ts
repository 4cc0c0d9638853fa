// Usage counts a proxy reports upstream, as the old proxy counted them (section 5.3): lookups
// (POST with a toggles list) count yes/no per listed toggle, and client SDK metrics posted to
// the proxy are merged in. Counts that fail to send are merged back into the next bucket.
//
// Bounded by the payload, not by callers (any client-key holder may post): only flags the
// current payload has are counted; per flag, the variant names it defines (and `disabled`)
// plus at most MAX_OTHER_VARIANTS other names of at most MAX_VARIANT_NAME_LENGTH characters per
// bucket (an SDK may report a variant of the previous payload, or a server SDK its fallback),
// the rest dropped; and every count stops at Number.MAX_SAFE_INTEGER (beyond it JSON numbers
// lose precision, then overflow). So a bucket is at most the payload's flags, each with its own
// variants and 50 short names.
import type { MetricsBucket, UsageBuckets } from './metrics-bucket.js'

export const MAX_OTHER_VARIANTS = 50
export const MAX_VARIANT_NAME_LENGTH = 100

/** `others`: how many of `variants` the flag does not define (not sent). */
type ToggleCounts = { yes: number; no: number; variants: Record<string, number>; others: number }

export interface UsageAggregator extends UsageBuckets {
  count(name: string, enabled: boolean): void
  /** Merges toggle counts posted by a client SDK. */
  merge(toggles: Record<string, { yes?: number; no?: number; variants?: Record<string, number> }>): void
  readonly isEmpty: boolean
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
  let toggles = new Map<string, ToggleCounts>()

  const entry = (name: string): ToggleCounts => {
    let counts = toggles.get(name)
    if (!counts) toggles.set(name, (counts = { yes: 0, no: 0, variants: Object.create(null) as Record<string, number>, others: 0 }))
    return counts
  }
  const add = (name: string, yes: number, no: number, variants: Record<string, number> | undefined, defined: ReadonlySet<string>) => {
    const counts = entry(name)
    counts.yes = sum(counts.yes, yes)
    counts.no = sum(counts.no, no)
    if (!variants) return
    for (const [variant, n] of Object.entries(variants)) {
      const seen = counts.variants[variant]
      if (seen === undefined && !defined.has(variant)) {
        if (counts.others >= MAX_OTHER_VARIANTS || variant.length > MAX_VARIANT_NAME_LENGTH) continue
        counts.others++
      }
      counts.variants[variant] = sum(seen ?? 0, n)
    }
  }

  return {
    count(name, enabled) {
      if (!countedVariants(name)) return
      const counts = entry(name)
      if (enabled) counts.yes = sum(counts.yes, 1)
      else counts.no = sum(counts.no, 1)
    },
    merge(posted) {
      for (const [name, counts] of Object.entries(posted)) {
        const defined = countedVariants(name)
        if (defined) add(name, counts.yes ?? 0, counts.no ?? 0, counts.variants, defined)
      }
    },
    take(stop) {
      if (toggles.size === 0) {
        start = stop
        return undefined
      }
      const bucket: MetricsBucket = {
        start: start.toISOString(),
        stop: stop.toISOString(),
        toggles: Object.fromEntries([...toggles].map(([name, c]) => [name, { yes: c.yes, no: c.no, variants: { ...c.variants } }])),
      }
      toggles = new Map()
      start = stop
      return bucket
    },
    restore(bucket) {
      // Admitted when counted, but capped again: while the upstream is down, restored buckets
      // must not pile up a new set of other variant names every interval.
      for (const [name, counts] of Object.entries(bucket.toggles)) add(name, counts.yes, counts.no, counts.variants, countedVariants(name) ?? NONE)
      const failedStart = new Date(bucket.start)
      if (failedStart < start) start = failedStart
    },
    get isEmpty() {
      return toggles.size === 0
    },
  }
}

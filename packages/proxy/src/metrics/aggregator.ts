// Usage counts the proxy reports upstream, as the old proxy counted them (section 5.3): lookups
// (POST with a toggles list) count yes/no per listed toggle, and client SDK metrics posted to
// the proxy are merged in. Counts that fail to send are merged back into the next bucket.
import type { MetricsBucket } from '../sync/upstream.js'

type ToggleCounts = { yes: number; no: number; variants: Record<string, number> }

export interface MetricsAggregator {
  count(name: string, enabled: boolean): void
  /** Merges toggle counts posted by a client SDK. */
  merge(toggles: Record<string, { yes?: number; no?: number; variants?: Record<string, number> }>): void
  /** Takes the current bucket (undefined when empty) and starts a new one. */
  take(now: Date): MetricsBucket | undefined
  /** Puts back a bucket that failed to send: its counts are added, its start kept. */
  restore(bucket: MetricsBucket): void
  readonly isEmpty: boolean
}

export function createMetricsAggregator(now: () => Date = () => new Date()): MetricsAggregator {
  let start = now()
  let toggles = new Map<string, ToggleCounts>()

  const entry = (name: string): ToggleCounts => {
    let counts = toggles.get(name)
    if (!counts) toggles.set(name, (counts = { yes: 0, no: 0, variants: Object.create(null) as Record<string, number> }))
    return counts
  }
  const add = (name: string, yes: number, no: number, variants: Record<string, number> | undefined) => {
    const counts = entry(name)
    counts.yes += yes
    counts.no += no
    if (variants) for (const [variant, n] of Object.entries(variants)) counts.variants[variant] = (counts.variants[variant] ?? 0) + n
  }

  return {
    count(name, enabled) {
      const counts = entry(name)
      if (enabled) counts.yes++
      else counts.no++
    },
    merge(posted) {
      for (const [name, counts] of Object.entries(posted)) add(name, counts.yes ?? 0, counts.no ?? 0, counts.variants)
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
      for (const [name, counts] of Object.entries(bucket.toggles)) add(name, counts.yes, counts.no, counts.variants)
      const failedStart = new Date(bucket.start)
      if (failedStart < start) start = failedStart
    },
    get isEmpty() {
      return toggles.size === 0
    },
  }
}

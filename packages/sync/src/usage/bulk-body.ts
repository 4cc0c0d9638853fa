// A bucket as Unleash's `POST /client/metrics/bulk` takes it (Edge's form, Unleash 5.9+): the
// registrations in `applications`, and a row per app and flag in `metrics`, each under its own
// appName and environment. Rows must carry the reporting token's environment: Unleash keeps only
// those. For an upstream without bulk, `flattenBucket` folds every app's counts into the proxy's own.
import type { AppIdentity, MetricsBucket, ToggleBucket } from './metrics-bucket.js'

export interface BulkMetricsBody {
  applications: (Record<string, unknown> & AppIdentity & { environment: string; connectVia: AppIdentity[] })[]
  metrics: {
    featureName: string
    appName: string
    instanceId: string
    environment: string
    timestamp: string
    yes: number
    no: number
    variants: Record<string, number>
  }[]
  /** Vexil's: see served-tokens.ts. */
  servedTokens?: string[]
}

/** Who reports: the proxy itself, and the environment of its upstream token. */
export interface Reporter {
  appName: string
  instanceId: string
  environment: string
}

export function bulkBody(bucket: MetricsBucket, reporter: Reporter): BulkMetricsBody {
  const { environment } = reporter
  const metrics: BulkMetricsBody['metrics'] = []
  const rows = (app: AppIdentity, toggles: ToggleBucket) => {
    for (const [featureName, counts] of Object.entries(toggles)) {
      metrics.push({
        featureName,
        appName: app.appName,
        instanceId: app.instanceId,
        environment,
        timestamp: bucket.start,
        yes: counts.yes,
        no: counts.no,
        variants: counts.variants,
      })
    }
  }
  rows(reporter, bucket.toggles)
  for (const app of bucket.apps ?? []) rows(app, app.toggles)
  // Each proxy on the way adds itself after the ones nearer the SDK, as Edge does.
  const self = { appName: reporter.appName, instanceId: reporter.instanceId }
  const applications = (bucket.applications ?? []).map((registration) => ({
    ...registration,
    environment: registration.environment ?? environment,
    connectVia: [...(registration.connectVia ?? []), self],
  }))
  return { applications, metrics, ...(bucket.servedTokens ? { servedTokens: bucket.servedTokens } : {}) }
}

/** The bucket with every app's counts added to the proxy's own, and no registrations. */
export function flattenBucket(bucket: MetricsBucket): MetricsBucket {
  const toggles: ToggleBucket = Object.create(null) as ToggleBucket
  const add = (from: ToggleBucket) => {
    for (const [name, counts] of Object.entries(from)) {
      const into = (toggles[name] ??= { yes: 0, no: 0, variants: {} })
      into.yes = sum(into.yes, counts.yes)
      into.no = sum(into.no, counts.no)
      for (const [variant, n] of Object.entries(counts.variants))
        into.variants[variant] = sum(into.variants[variant] ?? 0, n)
    }
  }
  add(bucket.toggles)
  for (const app of bucket.apps ?? []) add(app.toggles)
  const flat: MetricsBucket = { start: bucket.start, stop: bucket.stop, toggles: { ...toggles } }
  if (bucket.servedTokens) flat.servedTokens = bucket.servedTokens
  return flat
}

// --- Internal helpers ---

const sum = (a: number, b: number) => Math.min(a + b, Number.MAX_SAFE_INTEGER)

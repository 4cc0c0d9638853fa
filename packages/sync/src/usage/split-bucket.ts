// One bucket, several sends: the upstream refuses a body over its limit (the Vexil service takes
// 1 MiB, other upstreams less), and a refused body is dropped whole. Each part keeps the
// bucket's time window and a share of its counts and registrations, in order; together they
// hold every count once.
import { MAX_NAME_LENGTH } from './app-limits.js'
import type { AppIdentity, MetricsBucket, ToggleBucket } from './metrics-bucket.js'

type Row =
  | { app: AppIdentity | undefined; name: string; counts: ToggleBucket[string] }
  | { registration: NonNullable<MetricsBucket['applications']>[number] }

/** What a bulk row adds around its name, counts and app: its keys, the timestamp, the environment. */
const ROW_FRAME_BYTES = 160 + MAX_NAME_LENGTH
/** The proxy's own app name and instance id, which a bulk row of its own counts (and a registration's connectVia) carries. */
const OWN_APP_BYTES = 2 * MAX_NAME_LENGTH

/**
 * Parts whose JSON, in either form (the plain bucket or the bulk body), is at most `maxBytes`
 * (UTF-8) each, filled in order. A single row larger than that goes out on its own rather than
 * being lost.
 */
export function splitBucket(bucket: MetricsBucket, maxBytes: number): MetricsBucket[] {
  const frame = byteLength(
    JSON.stringify({
      start: bucket.start,
      stop: bucket.stop,
      toggles: {},
      applications: [],
      metrics: [],
      servedTokens: bucket.servedTokens,
    }),
  )
  const parts: Row[][] = [[]]
  let size = frame
  for (const row of rowsOf(bucket)) {
    const part = parts[parts.length - 1]!
    const bytes = rowBytes(row) + 1
    if (part.length > 0 && size + bytes > maxBytes) {
      parts.push([row])
      size = frame + bytes
    } else {
      part.push(row)
      size += bytes
    }
  }
  const split = parts.map((rows) => bucketOf(bucket, rows))
  // Bounded (served-tokens.ts), so the first part carries them all.
  if (bucket.servedTokens) split[0]!.servedTokens = bucket.servedTokens
  return split
}

// --- Internal helpers ---

function rowsOf(bucket: MetricsBucket): Row[] {
  const rows: Row[] = []
  for (const [name, counts] of Object.entries(bucket.toggles)) rows.push({ app: undefined, name, counts })
  for (const app of bucket.apps ?? []) {
    const identity = { appName: app.appName, instanceId: app.instanceId, environment: app.environment }
    for (const [name, counts] of Object.entries(app.toggles)) rows.push({ app: identity, name, counts })
  }
  for (const registration of bucket.applications ?? []) rows.push({ registration })
  return rows
}

function rowBytes(row: Row): number {
  if ('registration' in row) return byteLength(JSON.stringify(row.registration)) + OWN_APP_BYTES + ROW_FRAME_BYTES
  const app = row.app ? byteLength(JSON.stringify(row.app)) : OWN_APP_BYTES
  return byteLength(JSON.stringify(row.name)) + byteLength(JSON.stringify(row.counts)) + app + ROW_FRAME_BYTES
}

function bucketOf(bucket: MetricsBucket, rows: Row[]): MetricsBucket {
  // Object.create(null): a flag named "__proto__" stays a flag.
  const toggles: ToggleBucket = Object.create(null) as ToggleBucket
  const apps = new Map<AppIdentity, ToggleBucket>()
  const applications: NonNullable<MetricsBucket['applications']> = []
  for (const row of rows) {
    if ('registration' in row) applications.push(row.registration)
    else if (!row.app) toggles[row.name] = row.counts
    else {
      let into = apps.get(row.app)
      if (!into) apps.set(row.app, (into = Object.create(null) as ToggleBucket))
      into[row.name] = row.counts
    }
  }
  const part: MetricsBucket = { start: bucket.start, stop: bucket.stop, toggles: { ...toggles } }
  if (apps.size > 0)
    part.apps = [...apps].map(([app, appToggles]) => ({ ...withoutUndefined(app), toggles: { ...appToggles } }))
  if (applications.length > 0) part.applications = applications
  return part
}

function withoutUndefined(app: AppIdentity): AppIdentity {
  return app.environment === undefined ? { appName: app.appName, instanceId: app.instanceId } : app
}

const encoder = new TextEncoder()

/** UTF-8 bytes, in any runtime. */
function byteLength(text: string): number {
  return encoder.encode(text).length
}

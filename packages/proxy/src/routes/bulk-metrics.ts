// Reading Edge's bulk metrics body (`POST /api/client/metrics/bulk`), as a Vexil or an Edge in
// front of this proxy posts it: rows grouped by app, registrations checked field by field.
// Malformed rows and registrations are skipped, as Edge does; the aggregator bounds the rest.
import { type AppIdentity, type AppRegistration, MAX_CONNECT_VIA, type ToggleBucket } from '@vexil/sync'
import { isObject } from '../http/body.js'

const MAX_ROWS = 10_000
const MAX_REGISTRATIONS = 1_000

/** The rows of `environment` (or of none), by app; a row without an appName is the caller's own. */
export function bulkRows(rows: unknown[], environment: string): Map<AppIdentity | undefined, ToggleBucket> {
  const byKey = new Map<string, { app: AppIdentity | undefined; toggles: ToggleBucket }>()
  for (const row of rows.slice(0, MAX_ROWS)) {
    if (!isObject(row) || typeof row.featureName !== 'string') continue
    if (row.environment !== undefined && row.environment !== environment) continue
    const app =
      typeof row.appName === 'string'
        ? {
            appName: row.appName,
            instanceId: typeof row.instanceId === 'string' ? row.instanceId : 'default',
            environment,
          }
        : undefined
    const key = app ? JSON.stringify([app.appName, app.instanceId]) : ''
    let group = byKey.get(key)
    if (!group) byKey.set(key, (group = { app, toggles: Object.create(null) as ToggleBucket }))
    const counts = (group.toggles[row.featureName] ??= {
      yes: 0,
      no: 0,
      variants: Object.create(null) as Record<string, number>,
    })
    counts.yes += wholeCount(row.yes)
    counts.no += wholeCount(row.no)
    if (isObject(row.variants))
      for (const [variant, n] of Object.entries(row.variants))
        counts.variants[variant] = (counts.variants[variant] ?? 0) + wholeCount(n)
  }
  return new Map([...byKey.values()].map(({ app, toggles }) => [app, toggles]))
}

/** The well-formed registrations of `environment` (or of none). */
export function bulkRegistrations(applications: unknown[], environment: string): AppRegistration[] {
  const kept: AppRegistration[] = []
  for (const entry of applications.slice(0, MAX_REGISTRATIONS)) {
    if (!isObject(entry) || typeof entry.appName !== 'string' || typeof entry.instanceId !== 'string') continue
    if (entry.environment !== undefined && entry.environment !== environment) continue
    const strategies = Array.isArray(entry.strategies)
      ? entry.strategies.filter((name): name is string => typeof name === 'string')
      : []
    const registration: AppRegistration = {
      appName: entry.appName,
      instanceId: entry.instanceId,
      environment,
      strategies,
    }
    if (typeof entry.sdkVersion === 'string') registration.sdkVersion = entry.sdkVersion
    if (entry.sdkType === 'frontend' || entry.sdkType === 'backend') registration.sdkType = entry.sdkType
    if (typeof entry.interval === 'number') registration.interval = entry.interval
    if (typeof entry.started === 'string') registration.started = entry.started
    if (Array.isArray(entry.connectVia)) {
      registration.connectVia = entry.connectVia
        .slice(0, MAX_CONNECT_VIA)
        .filter(
          (via): via is { appName: string; instanceId: string } =>
            isObject(via) && typeof via.appName === 'string' && typeof via.instanceId === 'string',
        )
        .map(({ appName, instanceId }) => ({ appName, instanceId }))
    }
    kept.push(registration)
  }
  return kept
}

// --- Internal helpers ---

const wholeCount = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0

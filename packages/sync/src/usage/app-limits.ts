// The bounds on what SDKs behind a proxy can make it keep and forward (docs/security.md): a
// flood of made-up apps, registrations or flag names costs a bounded amount of memory and of
// upstream traffic. What goes over a bound is dropped and counted (`UsageAggregator.dropped`).
import type { AppIdentity } from './metrics-bucket.js'

/** Apps counted under their own name per bucket; counts of further apps go to the proxy's own. */
export const MAX_APPS = 1_000
/** Registrations kept per bucket, and their total size (JSON). */
export const MAX_APPLICATIONS = 1_000
export const MAX_APPLICATION_BYTES = 1024 * 1024
/** Per-app flag counts kept per bucket, in bytes (a count's name plus its numbers). */
export const MAX_APP_COUNT_BYTES = 4 * 1024 * 1024
/** Names the payload lacks, counted per bucket (Unleash's unknown flags); further ones are dropped. */
export const MAX_UNKNOWN_FLAGS = 1_000
/** Longer names the payload lacks are dropped, as are longer app names, instance ids and SDK versions. */
export const MAX_NAME_LENGTH = 255
/** Strategy names kept per registration. */
export const MAX_REGISTERED_STRATEGIES = 100
/** Proxies kept in a registration's connectVia (a chain longer than this keeps its nearest-the-SDK part). */
export const MAX_CONNECT_VIA = 16

/** What a count costs beside its name: the object and its numbers. */
export const COUNT_OVERHEAD_BYTES = 64

/** One key per (appName, instanceId, environment). */
export function appKey(app: AppIdentity): string {
  return JSON.stringify([app.appName, app.instanceId, app.environment ?? null])
}

/** False when a field is too long to keep. */
export function isKeepable(app: AppIdentity): boolean {
  return (
    app.appName.length <= MAX_NAME_LENGTH &&
    app.instanceId.length <= MAX_NAME_LENGTH &&
    (app.environment?.length ?? 0) <= MAX_NAME_LENGTH
  )
}

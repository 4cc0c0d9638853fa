// The SDK registrations a proxy forwards upstream (Unleash's `applications`), one per
// (appName, instanceId, environment): the latest wins. Bounded in count and in bytes; a
// registration over a bound is dropped and counted, once per app and report.
import {
  appKey,
  isKeepable,
  MAX_APPLICATION_BYTES,
  MAX_APPLICATIONS,
  MAX_CONNECT_VIA,
  MAX_NAME_LENGTH,
  MAX_REGISTERED_STRATEGIES,
} from './app-limits.js'
import type { AppRegistration } from './metrics-bucket.js'

/** What became of a registration: `dropped again` is an app already turned away this report. */
export type RegistrationOutcome = 'kept' | 'dropped' | 'dropped again'

export interface Registrations {
  /** Dropped when too long, or over the bounds. An implied one never replaces a registered one. */
  add(registration: AppRegistration, implied?: boolean): RegistrationOutcome
  has(key: string): boolean
  /** Every registration kept, emptying the store. */
  take(): AppRegistration[]
  readonly size: number
  readonly bytes: number
}

export function createRegistrations(): Registrations {
  let kept = new Map<string, { registration: AppRegistration; bytes: number }>()
  let bytes = 0
  // An implied registration is the same object again and again (the proxy's OFREP routes make one
  // per app): kept once, a repeat costs a lookup, not a key.
  let impliedKept = new WeakSet<AppRegistration>()
  // The apps turned away this report, so that a drop counts an app once, not every answer or
  // hand-over that carries it again (at most MAX_APPLICATIONS remembered; past that each counts).
  let droppedApps = new Set<string>()
  const drop = (key: string): RegistrationOutcome => {
    if (droppedApps.has(key)) return 'dropped again'
    if (droppedApps.size < MAX_APPLICATIONS) droppedApps.add(key)
    return 'dropped'
  }
  return {
    add(registration, implied = false) {
      if (implied && impliedKept.has(registration)) return 'kept'
      if (!isKeepable(registration) || (registration.sdkVersion?.length ?? 0) > MAX_NAME_LENGTH) return 'dropped'
      const key = appKey(registration)
      const previous = kept.get(key)
      if (previous && implied) {
        impliedKept.add(registration)
        return 'kept'
      }
      const trimmed = {
        ...registration,
        strategies: registration.strategies
          .filter((name) => name.length <= MAX_NAME_LENGTH)
          .slice(0, MAX_REGISTERED_STRATEGIES),
      }
      if (registration.connectVia)
        trimmed.connectVia = registration.connectVia
          .filter(isKeepable)
          .slice(0, MAX_CONNECT_VIA)
          .map(({ appName, instanceId }) => ({ appName, instanceId }))
      const size = JSON.stringify(trimmed).length
      const growth = size - (previous?.bytes ?? 0)
      if ((!previous && kept.size >= MAX_APPLICATIONS) || bytes + growth > MAX_APPLICATION_BYTES) return drop(key)
      kept.set(key, { registration: trimmed, bytes: size })
      bytes += growth
      if (implied) impliedKept.add(registration)
      return 'kept'
    },
    has: (key) => kept.has(key),
    take() {
      const all = [...kept.values()].map((entry) => entry.registration)
      kept = new Map()
      impliedKept = new WeakSet()
      droppedApps = new Set()
      bytes = 0
      return all
    },
    get size() {
      return kept.size
    },
    get bytes() {
      return bytes
    },
  }
}

// OFREP callers upstream under their own app (docs/operations.md, "What the upstream sees"):
// OFREP providers post no metrics, so where the evaluation context names an app the proxy reports
// for it, as the frontend SDKs' own /client/metrics and /client/register do (routes/frontend-metrics.ts).
// A context without an app name is the proxy's own use.
import type { H3Event } from 'h3'
import type { EvaluationDetails } from '@vexil/engine'
import { type AppIdentity, type AppRegistration, appKey, isKeepable, MAX_APPLICATIONS } from '@vexil/sync'
import type { FlagSet } from '../scope/flag-set.js'
import type { UsageSink } from '../scope/token-scopes.js'

/** Unleash lists an app only with an SDK version; OFREP providers send none. */
const SDK_VERSION = 'ofrep'
const DEFAULT_INSTANCE_ID = 'ofrep'

/**
 * The app the caller's context names (`appName` as sent, before the proxy's defaults), or
 * undefined; its instance is the context's `instanceId`, its environment a frontend token's.
 */
export function callerApp(
  appName: string | undefined,
  raw: Record<string, unknown>,
  event: H3Event,
): AppIdentity | undefined {
  if (appName === undefined || appName === '') return undefined
  const instanceId = typeof raw.instanceId === 'string' && raw.instanceId !== '' ? raw.instanceId : DEFAULT_INSTANCE_ID
  const app: AppIdentity = { appName, instanceId }
  const environment = event.context.caller?.token.environment
  if (environment !== undefined) app.environment = environment
  return app
}

/**
 * The registration each calling app implies, made once per app and then the same object: the
 * registration store keeps an implied one once per object, so a repeat (every single-flag call,
 * every bulk answer) costs a lookup and allocates nothing. A single-flag caller evaluates as a
 * server SDK (`backend`), a bulk caller as a frontend one. Unleash refuses a whole report (400)
 * whose backend registration lacks `started` and `interval`: the caller's are unknown, so the
 * proxy's start and its usage interval stand for them. None for names longer than the usage
 * bounds keep (they would be dropped on every call); at most MAX_APPLICATIONS apps are remembered.
 * Shared by every answer, so frozen.
 */
export function impliedRegistrations(
  sdkType: 'backend' | 'frontend',
  metricsInterval: number,
): (app: AppIdentity | undefined) => AppRegistration | undefined {
  const started = new Date().toISOString()
  const made = new Map<string, AppRegistration>()
  return (app) => {
    if (!app || !isKeepable(app)) return undefined
    const key = appKey(app)
    let registration = made.get(key)
    if (!registration) {
      // The oldest app makes room: a flood of made-up names does not make every app's anew.
      if (made.size >= MAX_APPLICATIONS) made.delete(made.keys().next().value!)
      registration = Object.freeze({
        ...app,
        sdkType,
        sdkVersion: SDK_VERSION,
        strategies: [],
        started,
        interval: metricsInterval,
      })
      made.set(key, registration)
    }
    return registration
  }
}

/** Where the caller's counts go: a frontend token's scope, or the static scope's for a client key. */
export function usageOf(event: H3Event, staticUsage: UsageSink | undefined): UsageSink | undefined {
  const caller = event.context.caller
  return caller ? caller.view.usage : staticUsage
}

/**
 * One evaluation as the SDKs count theirs: under the caller's app when it names one (yes/no, and
 * the variant of a flag that has variants, as `getVariant` counts), else as the proxy's own.
 */
export function countEvaluation(
  usage: UsageSink | undefined,
  flags: FlagSet,
  details: EvaluationDetails,
  app: AppIdentity | undefined,
  registration: AppRegistration | undefined,
): void {
  if (!usage) return
  const { flagKey, toggle } = details
  if (!app) {
    usage.count(flagKey, toggle.enabled)
    return
  }
  const variants = Object.create(null) as Record<string, number>
  const variant = toggle.variant.name
  if (details.type !== 'boolean' && flags.countedVariants.get(flagKey)?.has(variant)) variants[variant] = 1
  usage.merge({ [flagKey]: { yes: toggle.enabled ? 1 : 0, no: toggle.enabled ? 0 : 1, variants } }, app)
  if (registration) usage.register(registration, true)
}

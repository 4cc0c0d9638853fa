// OFREP callers upstream under their own app (docs/operations.md, "What the upstream sees"):
// OFREP providers post no metrics, so where the evaluation context names an app the proxy reports
// for it, as the frontend SDKs' own /client/metrics and /client/register do (routes/frontend-metrics.ts).
// A context without an app name is the proxy's own use.
import type { H3Event } from 'h3'
import type { EvaluationDetails } from '@vexil/engine'
import { type AppIdentity, type AppRegistration, MAX_NAME_LENGTH } from '@vexil/sync'
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
 * What Unleash requires of a backend registration beside the app (its 400 otherwise refuses the
 * whole report): the caller's start and interval are unknown, so the proxy's stand for them.
 */
export interface RegistrationTimes {
  started: string
  interval: number
}

/** Made when a dialect is: the proxy's start, and how often it reports usage. */
export const registrationTimes = (metricsInterval: number): RegistrationTimes => ({
  started: new Date().toISOString(),
  interval: metricsInterval,
})

/**
 * The registration a bulk answer carries (and the response cache keeps): none for names longer
 * than the usage bounds keep, which would be dropped on every answer anyway.
 */
export function bulkRegistration(app: AppIdentity | undefined, times: RegistrationTimes): AppRegistration | undefined {
  if (!app || app.appName.length > MAX_NAME_LENGTH || app.instanceId.length > MAX_NAME_LENGTH) return undefined
  return impliedRegistration(app, 'frontend', times)
}

/** What the caller's evaluations imply it is: a single-flag caller evaluates as a server SDK, a bulk caller as a frontend one. */
export function impliedRegistration(
  app: AppIdentity,
  sdkType: 'backend' | 'frontend',
  times: RegistrationTimes,
): AppRegistration {
  return { ...app, sdkType, sdkVersion: SDK_VERSION, strategies: [], started: times.started, interval: times.interval }
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
  times: RegistrationTimes,
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
  usage.register(impliedRegistration(app, 'backend', times), true)
}

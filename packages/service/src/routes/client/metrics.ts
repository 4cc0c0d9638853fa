import { eventHandler, getRequestIP } from 'h3'
import { z } from 'zod'
import { clientToken } from '../../auth.js'
import type { ServiceContext } from '../../service-context.js'
import { registerClient, touchClientInstance } from '../../store/client-applications.js'
import { markApiTokenSeen, markApiTokensSeenByHash } from '../../store/api-tokens.js'
import { addClientMetrics } from '../../store/client-metrics.js'
import { dateTime, readBodyWith } from '../../validate.js'
import { empty } from '../http.js'
import type { ApiRouter } from '../api-router.js'

/** What one post may mark seen: a proxy sends at most this many (as @vexil/sync's MAX_SERVED_TOKENS). */
const MAX_SERVED_TOKENS = 1_000
const count = z.number().int().min(0, 'must be a count (>= 0)')
/** Names SDKs send (app, instance, SDK version): keys of rows and indexes, so bounded like every name. */
const name = z.string().min(1, 'is required').max(255)

/** The body Unleash SDKs post to `/api/client/metrics`. */
const metricsSchema = z.object({
  appName: name,
  instanceId: name.default('default'),
  environment: z.string().max(255).optional(),
  bucket: z.object({
    start: dateTime,
    stop: dateTime,
    toggles: z.record(
      z.string(),
      z.object({ yes: count.default(0), no: count.default(0), variants: z.record(z.string(), count).default({}) }),
    ),
    /** A Vexil proxy's: SHA-256 hex of each token it served (@vexil/sync's served-tokens.ts). */
    servedTokens: z
      .array(z.string().regex(/^[0-9a-f]{64}$/))
      .max(MAX_SERVED_TOKENS)
      .default([]),
  }),
})

/** What one post may write (the rest is ignored): one client cannot add unbounded rows. */
const METRICS_LIMITS = { toggles: 1_000, variantsPerToggle: 50 } as const

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
/** Clock skew we accept from an SDK's host before calling a bucket's time made up. */
const FUTURE_SKEW_MS = 5 * MINUTE_MS
/** The oldest bucket we file under its own hour: a proxy keeps counts it failed to send and sends them later. */
const MAX_BUCKET_AGE_MS = 24 * HOUR_MS

/** The body Unleash SDKs post to `/api/client/register`. */
const registerSchema = z.object({
  appName: name,
  instanceId: name.default('default'),
  sdkVersion: z.string().max(255).nullish(),
  environment: z.string().max(255).optional(),
  strategies: z.array(z.string().max(255)).max(1_000).default([]),
  started: dateTime.nullish(),
  interval: z.number().int().min(0).nullish(),
})

/**
 * SDK usage: metrics are added to hourly rows per (flag, app, environment), for the flags the
 * token can fetch, and the posting token and the tokens a proxy says it served are marked seen; registrations record the application and instance (no per-flag data). The
 * environment is the token's (Unleash), never the body's.
 */
export function registerClientMetricsRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.post(
    '/api/client/metrics',
    'client',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, metricsSchema)
      const token = clientToken(event)
      const { environment, projects } = token
      const now = ctx.clock()
      const { start, lastSeen } = bucketTimes(body.bucket.start, body.bucket.stop, now)
      await ctx.db.transaction(async (tx) => {
        await addClientMetrics(
          tx,
          { appName: body.appName, environment, projects, start, lastSeen, toggles: body.bucket.toggles },
          METRICS_LIMITS,
        )
        await touchClientInstance(tx, body.appName, body.instanceId, environment, now)
        // Every post marks its own token, unthrottled (a proxy's token is otherwise seen only at its fetches).
        await markApiTokenSeen(tx, token.id, now)
        await markApiTokensSeenByHash(tx, body.bucket.servedTokens, now)
      })
      return empty(event, 202)
    }),
  )

  api.post(
    '/api/client/register',
    'client',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, registerSchema)
      await registerClient(
        ctx.db,
        {
          appName: body.appName,
          instanceId: body.instanceId,
          environment: clientToken(event).environment,
          sdkVersion: body.sdkVersion ?? null,
          strategies: body.strategies,
          started: body.started ?? null,
          interval: body.interval ?? null,
          clientIp: getRequestIP(event) ?? null,
        },
        ctx.clock(),
      )
      return empty(event, 202)
    }),
  )
}

// --- Internal helpers ---

/**
 * Where a bucket's counts are filed, from times the client chose. Counts are never dropped, but
 * a time outside what a real SDK or proxy sends (ending more than FUTURE_SKEW_MS ahead, or
 * starting more than MAX_BUCKET_AGE_MS ago) is made up or from a broken clock: such a bucket is
 * taken as the last hour ([now - 1 h, now]), so it can neither put rows and `lastSeenAt` in the
 * future (shown in insights before they happen) nor rewrite weeks whose snapshots were taken.
 * Within the skew, times are capped at now.
 */
function bucketTimes(start: Date, stop: Date, now: Date): { start: Date; lastSeen: Date } {
  const first = Math.min(start.getTime(), stop.getTime())
  const last = Math.max(start.getTime(), stop.getTime())
  if (last > now.getTime() + FUTURE_SKEW_MS || first < now.getTime() - MAX_BUCKET_AGE_MS) {
    return { start: new Date(now.getTime() - HOUR_MS), lastSeen: now }
  }
  return {
    start: new Date(Math.min(start.getTime(), now.getTime())),
    lastSeen: new Date(Math.min(last, now.getTime())),
  }
}

import { eventHandler, getRequestIP } from 'h3'
import { z } from 'zod'
import { clientToken } from '../../auth.js'
import type { ServiceContext } from '../../context.js'
import { registerClient, touchClientInstance } from '../../store/client-applications.js'
import { addClientMetrics } from '../../store/client-metrics.js'
import { dateTime, readBodyWith } from '../../validate.js'
import { empty } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const count = z.number().int().min(0, 'must be a count (>= 0)')

/** The body Unleash SDKs post to `/api/client/metrics`. */
const metricsSchema = z.object({
  appName: z.string().min(1, 'is required'),
  instanceId: z.string().min(1).default('default'),
  environment: z.string().optional(),
  bucket: z.object({
    start: dateTime,
    stop: dateTime,
    toggles: z.record(z.string(), z.object({ yes: count.default(0), no: count.default(0), variants: z.record(z.string(), count).default({}) })),
  }),
})

/** The body Unleash SDKs post to `/api/client/register`. */
const registerSchema = z.object({
  appName: z.string().min(1, 'is required'),
  instanceId: z.string().min(1).default('default'),
  sdkVersion: z.string().nullish(),
  environment: z.string().optional(),
  strategies: z.array(z.string()).default([]),
  started: dateTime.nullish(),
  interval: z.number().int().min(0).nullish(),
})

/**
 * SDK usage: metrics are added to hourly rows per (flag, app, environment); registrations record
 * the application and instance. The environment is the token's (Unleash), never the body's.
 */
export function registerClientMetricsRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.post('/api/client/metrics', 'client', eventHandler(async (event) => {
    const body = await readBodyWith(event, metricsSchema)
    const environment = clientToken(event).environment
    await ctx.db.transaction(async (tx) => {
      await addClientMetrics(tx, { appName: body.appName, environment, at: body.bucket.start, toggles: body.bucket.toggles })
      await touchClientInstance(tx, body.appName, body.instanceId, environment, ctx.clock())
    })
    return empty(event, 202)
  }))

  api.post('/api/client/register', 'client', eventHandler(async (event) => {
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
  }))
}

import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { notFound } from '../../errors.js'
import { listApplications } from '../../store/client-applications.js'
import { featureMetrics, hourOf } from '../../store/client-metrics.js'
import { flagUsage, lastHourUsage, seenApplications } from '../../store/flag-usage.js'
import { getFeature } from '../../store/features.js'
import { queryWith } from '../../validate.js'
import { param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** What SDKs reported: registered applications and a flag's hourly counts. */
export function registerMetricsRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/metrics/applications',
    'admin',
    eventHandler(async () => ({ applications: await listApplications(ctx.db) })),
  )

  /** Unleash's featureUsageSchema: the last hour per environment, and the apps that reported the flag. */
  api.get(
    '/api/admin/client-metrics/features/:featureName',
    'admin',
    eventHandler(async (event) => {
      const featureName = param(event, 'featureName')
      if (!(await getFeature(ctx.db, featureName))) throw notFound(`Feature "${featureName}"`)
      const since = new Date(ctx.clock().getTime() - HOUR_MS)
      const [lastHour, applications] = await Promise.all([
        lastHourUsage(ctx.db, featureName, since),
        seenApplications(ctx.db, featureName),
      ])
      return { version: 1, maturity: 'stable', featureName, lastHourUsage: lastHour, seenApplications: applications }
    }),
  )

  /** Vexil's: every reported flag's yes/no and variant counts over the last hour and day (the UI's usage). */
  api.get(
    '/api/admin/client-metrics/usage',
    'admin',
    eventHandler(async (event) => {
      const { featureName } = queryWith(event, z.object({ featureName: z.string().min(1).optional() }))
      const now = ctx.clock().getTime()
      const since = { hour: hourOf(new Date(now - HOUR_MS)), day: hourOf(new Date(now - DAY_MS)) }
      return {
        hourSince: since.hour.toISOString(),
        daySince: since.day.toISOString(),
        features: await flagUsage(ctx.db, since, featureName),
      }
    }),
  )

  api.get(
    '/api/admin/client-metrics/features/:featureName/raw',
    'admin',
    eventHandler(async (event) => {
      const featureName = param(event, 'featureName')
      const { hoursBack } = queryWith(
        event,
        z.object({
          hoursBack: z.coerce
            .number()
            .int()
            .min(1)
            .max(24 * 90)
            .default(1),
        }),
      )
      if (!(await getFeature(ctx.db, featureName))) throw notFound(`Feature "${featureName}"`)
      const since = new Date(ctx.clock().getTime() - hoursBack * HOUR_MS)
      return {
        version: 1,
        maturity: 'stable',
        featureName,
        hoursBack,
        data: await featureMetrics(ctx.db, featureName, since),
      }
    }),
  )

  api.get(
    '/api/admin/feature-types',
    'admin',
    eventHandler(async () => {
      const rows = await ctx.db.query<{ id: string; name: string; description: string; lifetime_days: number | null }>(
        'SELECT * FROM feature_types ORDER BY id',
      )
      return {
        version: 1,
        types: rows.map((row) => ({
          id: row.id,
          name: row.name,
          description: row.description,
          lifetimeDays: row.lifetime_days,
        })),
      }
    }),
  )
}

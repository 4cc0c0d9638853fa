import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { searchEvents } from '../../store/events.js'
import { queryWith } from '../../validate.js'
import { param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const eventQuerySchema = z.object({
  project: z.string().min(1).optional(),
  feature: z.string().min(1).optional(),
  environment: z.string().min(1).optional(),
  type: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
})

/** The event log, newest first (`/api/admin/events`, `/api/admin/events/:featureName`). */
export function registerEventRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/events',
    'admin',
    eventHandler(async (event) => searchEvents(ctx.db, queryWith(event, eventQuerySchema))),
  )

  api.get(
    '/api/admin/events/:featureName',
    'admin',
    eventHandler(async (event) => {
      const featureName = param(event, 'featureName')
      const { events } = await searchEvents(ctx.db, { ...queryWith(event, eventQuerySchema), feature: featureName })
      return { version: 1, toggleName: featureName, events }
    }),
  )
}

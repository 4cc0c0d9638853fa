import { eventHandler } from 'h3'
import type { ServiceContext } from '../../service-context.js'
import { type EventFilter, searchEvents } from '../../store/events.js'
import { badData } from '../../errors.js'
import { queryWith } from '../../validate.js'
import { param } from '../http.js'
import type { ApiRouter } from '../api-router.js'
import { eventLogQuerySchema, eventSearchQuerySchema } from './event-query.js'

/**
 * The event log, newest first: `/api/admin/events` and `/api/admin/events/:featureName`
 * (Unleash's eventsSchema), and `/api/admin/search/events` (Unleash 8's searchEventsSchema).
 */
export function registerEventRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/events',
    'admin',
    eventHandler(async (event) => {
      const { events, total } = await search(ctx, queryWith(event, eventLogQuerySchema))
      return { version: 1, events, totalEvents: total }
    }),
  )

  api.get(
    '/api/admin/events/:featureName',
    'admin',
    eventHandler(async (event) => {
      const featureName = param(event, 'featureName')
      const filter = queryWith(event, eventLogQuerySchema)
      const { events, total } = await search(ctx, { ...filter, feature: [featureName] })
      return { version: 1, toggleName: featureName, events, totalEvents: total }
    }),
  )

  api.get(
    '/api/admin/search/events',
    'admin',
    eventHandler(async (event) => search(ctx, queryWith(event, eventSearchQuerySchema))),
  )
}

function search(ctx: ServiceContext, filter: EventFilter) {
  if (filter.from && filter.to && filter.from.getTime() >= filter.to.getTime())
    throw badData('The query parameter "from" must be before "to".')
  return searchEvents(ctx.db, filter)
}

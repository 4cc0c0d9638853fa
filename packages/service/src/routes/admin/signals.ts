import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { notFound } from '../../errors.js'
import { getSignalEndpoint } from '../../store/signal-endpoints.js'
import { listEndpointSignals, searchSignals, toEndpointSignal, toSignal } from '../../store/signals.js'
import { EARLIEST_TIME, LATEST_TIME, queryWith, TIME_RANGE_TEXT } from '../../validate.js'
import { intParam } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const DAY = /^\d{4}-\d{2}-\d{2}$/
const DAY_MS = 86_400_000

/**
 * A bound of the time range: `yyyy-MM-dd` (the whole UTC day) or a date-time, with or without
 * the UI's `IS:` prefix. Both bounds are inclusive; `to` comes out as an exclusive instant.
 */
const bound = (edge: 'from' | 'to') =>
  z.string().transform((text, ctx) => {
    const value = text.replace(/^IS:/, '')
    const time = DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value)
    if (!Number.isFinite(time) || time < EARLIEST_TIME || time > LATEST_TIME) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a date (yyyy-MM-dd, optionally IS:yyyy-MM-dd) or a date-time ${TIME_RANGE_TEXT}`,
      })
      return z.NEVER
    }
    if (edge === 'from') return new Date(time)
    // The day after 9999-12-31 is a year PostgreSQL's driver cannot write: the range ends at the last instant.
    return new Date(Math.min(time + (DAY.test(value) ? DAY_MS : 1), LATEST_TIME))
  })

const page = {
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
}

/** Received signals: of one endpoint, and of every endpoint within a time range (ADMIN). */
export function registerSignalRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/signal-endpoints/:id/signals',
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      const { limit, offset } = queryWith(event, z.object(page))
      if (!(await getSignalEndpoint(ctx.db, id))) throw notFound(`Signal endpoint ${id}`)
      return { signalEndpointSignals: (await listEndpointSignals(ctx.db, id, limit, offset)).map(toEndpointSignal) }
    }),
  )

  api.get(
    '/api/admin/signals',
    'admin',
    eventHandler(async (event) => {
      const query = queryWith(event, z.object({ ...page, from: bound('from').optional(), to: bound('to').optional() }))
      const { rows, total } = await searchSignals(ctx.db, query)
      return { signals: rows.map(toSignal), total }
    }),
  )
}

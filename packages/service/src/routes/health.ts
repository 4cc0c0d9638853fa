import { eventHandler, setResponseStatus } from 'h3'
import type { ServiceContext } from '../service-context.js'
import type { ApiRouter } from './api-router.js'

/** `GET /health`: 200 `{ health: 'GOOD' }` when the database answers (Unleash's shape), else 500 `BAD`. */
export function registerHealthRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/health',
    'public',
    eventHandler(async (event) => {
      try {
        await ctx.db.query('SELECT 1')
        return { health: 'GOOD' }
      } catch (error) {
        ctx.logger.error('health check: the database does not answer', error)
        setResponseStatus(event, 500)
        return { health: 'BAD' }
      }
    }),
  )
}

import { eventHandler, type H3Event } from 'h3'
import type { ServiceContext } from '../../service-context.js'
import { readDefaultStrategy, setDefaultStrategy } from '../../domain/default-strategies.js'
import { strategyBodySchema } from '../../schemas/strategy.js'
import { readBodyWith } from '../../validate.js'
import { change, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const DEFAULT_STRATEGY = '/api/admin/projects/:projectId/environments/:environment/default-strategy'

/**
 * A project's default strategy per environment: what enabling a flag with no strategy there adds
 * (domain/toggle.ts). Unleash 8.2 sets it with POST and shows it only in the project overview;
 * here PUT sets it too (it replaces the whole strategy) and GET reads it.
 */
export function registerDefaultStrategyRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    DEFAULT_STRATEGY,
    'admin',
    eventHandler((event) => readDefaultStrategy(ctx.db, param(event, 'projectId'), param(event, 'environment'))),
  )

  const update = eventHandler(async (event: H3Event) => {
    const body = await readBodyWith(event, strategyBodySchema)
    return change(ctx, event, (c) =>
      setDefaultStrategy(c, param(event, 'projectId'), param(event, 'environment'), body),
    )
  })
  api.put(DEFAULT_STRATEGY, 'admin', update)
  api.post(DEFAULT_STRATEGY, 'admin', update)
}

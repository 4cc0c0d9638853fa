import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import type { ServiceContext } from '../../service-context.js'
import {
  addStrategy,
  deleteStrategy,
  reorderStrategies,
  requireStrategy,
  requireStrategyTarget,
  type StrategyTarget,
  updateStrategy,
} from '../../domain/strategies.js'
import { applyJsonPatch, patchSchema } from '../../patch.js'
import { sortOrderSchema, strategyBodySchema } from '../../schemas/strategy.js'
import * as strategies from '../../store/strategies.js'
import { parseWith, readBodyWith } from '../../validate.js'
import { change, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const STRATEGIES = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies'
const STRATEGY = `${STRATEGIES}/:strategyId`

/** A flag's strategies in one environment (Unleash's feature strategy API). */
export function registerStrategyRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const targetOf = (event: H3Event): StrategyTarget => ({
    project: param(event, 'projectId'),
    feature: param(event, 'featureName'),
    environment: param(event, 'environment'),
  })

  api.get(
    STRATEGIES,
    'admin',
    eventHandler(async (event) => {
      const target = targetOf(event)
      await requireStrategyTarget(ctx.db, target)
      return (await strategies.listStrategies(ctx.db, target.feature, target.environment)).map(strategies.toStrategy)
    }),
  )

  api.post(
    STRATEGIES,
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, strategyBodySchema)
      const row = await change(ctx, event, (c) => addStrategy(c, targetOf(event), body))
      return strategies.toStrategy(row)
    }),
  )

  api.post(
    `${STRATEGIES}/set-sort-order`,
    'admin',
    eventHandler(async (event) => {
      const order = await readBodyWith(event, sortOrderSchema, [])
      await change(ctx, event, (c) => reorderStrategies(c, targetOf(event), order))
      return empty(event)
    }),
  )

  api.get(
    STRATEGY,
    'admin',
    eventHandler(async (event) => {
      const target = targetOf(event)
      await requireStrategyTarget(ctx.db, target)
      return strategies.toStrategy(await requireStrategy(ctx.db, target, param(event, 'strategyId')))
    }),
  )

  api.put(
    STRATEGY,
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, strategyBodySchema)
      const row = await change(ctx, event, (c) => updateStrategy(c, targetOf(event), param(event, 'strategyId'), body))
      return strategies.toStrategy(row)
    }),
  )

  api.patch(
    STRATEGY,
    'admin',
    eventHandler(async (event) => {
      const operations = await readBodyWith(event, patchSchema, [])
      const patched = (current: strategies.StrategyRow) =>
        parseWith(strategyBodySchema, applyJsonPatch(strategies.toStrategy(current), operations), 'patched document')
      const row = await change(ctx, event, (c) =>
        updateStrategy(c, targetOf(event), param(event, 'strategyId'), patched),
      )
      return strategies.toStrategy(row)
    }),
  )

  api.delete(
    STRATEGY,
    'admin',
    eventHandler(async (event) => {
      await change(ctx, event, (c) => deleteStrategy(c, targetOf(event), param(event, 'strategyId')))
      return empty(event)
    }),
  )
}

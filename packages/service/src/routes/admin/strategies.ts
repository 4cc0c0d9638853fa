import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import type { ServiceContext } from '../../context.js'
import type { Queryable } from '../../db/database.js'
import { completeStrategy } from '../../domain/strategy-defaults.js'
import { badData, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { applyJsonPatch, patchSchema } from '../../patch.js'
import { sortOrderSchema, strategyBodySchema, type StrategyBody } from '../../schemas/strategy.js'
import { getProject } from '../../store/projects.js'
import { missingSegments } from '../../store/segments.js'
import * as strategies from '../../store/strategies.js'
import { parseWith, readBodyWith } from '../../validate.js'
import { change, empty, param } from '../http.js'
import { requireFeature, requireProjectEnvironment } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const STRATEGIES = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies'
const STRATEGY = `${STRATEGIES}/:strategyId`

/** A flag's strategies in one environment (Unleash's feature strategy API). */
export function registerStrategyRoutes(api: ApiRouter, ctx: ServiceContext): void {
  /** Resolves the path, locking the flag when `tx` is a write transaction. */
  async function target(q: Queryable, event: H3Event, lock = false) {
    const project = param(event, 'projectId')
    const environment = param(event, 'environment')
    const feature = await requireFeature(q, project, param(event, 'featureName'), { lock })
    await requireProjectEnvironment(q, project, environment)
    return { project, environment, feature: feature.name }
  }

  async function strategyIn(q: Queryable, event: H3Event, where: { feature: string; environment: string }) {
    const id = param(event, 'strategyId')
    const row = await strategies.getStrategy(q, id)
    if (!row || row.feature_name !== where.feature || row.environment !== where.environment) throw notFound(`Strategy "${id}"`)
    return row
  }

  async function prepare(q: Queryable, body: StrategyBody, project: string, feature: string): Promise<StrategyBody> {
    const missing = await missingSegments(q, body.segments)
    if (missing.length > 0) throw badData(`body.segments: segment ${missing.join(', ')} does not exist.`)
    const stickiness = (await getProject(q, project))?.default_stickiness ?? 'default'
    return completeStrategy(body, feature, stickiness)
  }

  api.get(STRATEGIES, 'admin', eventHandler(async (event) => {
    const where = await target(ctx.db, event)
    return (await strategies.listStrategies(ctx.db, where.feature, where.environment)).map(strategies.toStrategy)
  }))

  api.post(STRATEGIES, 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, strategyBodySchema)
    const row = await change(ctx, event, async (tx, actor) => {
      const where = await target(tx, event, true)
      const inserted = await strategies.insertStrategy(tx, where, await prepare(tx, body, where.project, where.feature), ctx.clock(), actor.userId)
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-strategy-add', project: where.project, featureName: where.feature, environment: where.environment, data: strategies.toStrategy(inserted) })
      return inserted
    })
    return strategies.toStrategy(row)
  }))

  api.post(`${STRATEGIES}/set-sort-order`, 'admin', eventHandler(async (event) => {
    const order = await readBodyWith(event, sortOrderSchema, [])
    await change(ctx, event, async (tx, actor) => {
      const where = await target(tx, event, true)
      for (const item of order) {
        const row = await strategies.getStrategy(tx, item.id)
        if (!row || row.feature_name !== where.feature || row.environment !== where.environment) throw notFound(`Strategy "${item.id}"`)
        await strategies.setSortOrder(tx, item.id, item.sortOrder)
      }
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-strategy-update', project: where.project, featureName: where.feature, environment: where.environment, data: { sortOrder: order } })
    })
    return empty(event)
  }))

  api.get(STRATEGY, 'admin', eventHandler(async (event) => {
    const where = await target(ctx.db, event)
    return strategies.toStrategy(await strategyIn(ctx.db, event, where))
  }))

  const replace = (event: H3Event, read: (current: strategies.StrategyRow) => Promise<StrategyBody>) =>
    change(ctx, event, async (tx, actor) => {
      const where = await target(tx, event, true)
      const before = await strategyIn(tx, event, where)
      const body = await prepare(tx, await read(before), where.project, where.feature)
      const after = await strategies.updateStrategy(tx, before.id, body)
      await writeEvent(tx, actor, ctx.clock, {
        type: 'feature-strategy-update',
        project: where.project,
        featureName: where.feature,
        environment: where.environment,
        data: strategies.toStrategy(after),
        preData: strategies.toStrategy(before),
      })
      return strategies.toStrategy(after)
    })

  api.put(STRATEGY, 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, strategyBodySchema)
    return replace(event, async () => body)
  }))

  api.patch(STRATEGY, 'admin', eventHandler(async (event) => {
    const operations = await readBodyWith(event, patchSchema, [])
    return replace(event, async (current) =>
      parseWith(strategyBodySchema, applyJsonPatch(strategies.toStrategy(current), operations), 'patched document'))
  }))

  api.delete(STRATEGY, 'admin', eventHandler(async (event) => {
    await change(ctx, event, async (tx, actor) => {
      const where = await target(tx, event, true)
      const row = await strategyIn(tx, event, where)
      await strategies.deleteStrategy(tx, row.id)
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-strategy-remove', project: where.project, featureName: where.feature, environment: where.environment, preData: strategies.toStrategy(row) })
    })
    return empty(event)
  }))
}

import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import { nameExists } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { urlSafeName } from '../../schemas/constraint.js'
import type { StrategyBody } from '../../schemas/strategy.js'
import { featureEnvironments, getFeature, insertFeature, setEnvironmentVariants, toFeature } from '../../store/features.js'
import { insertStrategy, listStrategies, toStrategy } from '../../store/strategies.js'
import { readBodyWith } from '../../validate.js'
import { change, created, param } from '../http.js'
import { featureView } from './feature-view.js'
import { requireFeature } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const cloneSchema = z.object({ name: urlSafeName, replaceGroupId: z.boolean().default(true) })

/**
 * `POST /api/admin/projects/:p/features/:f/clone` (Unleash): a new flag with the same metadata,
 * strategies and variants in every environment, disabled everywhere; `groupId` parameters are
 * replaced by the new name unless `replaceGroupId` is false.
 */
export function registerCloneRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.post('/api/admin/projects/:projectId/features/:featureName/clone', 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const body = await readBodyWith(event, cloneSchema)
    const row = await change(ctx, event, async (tx, actor) => {
      const source = await requireFeature(tx, project, param(event, 'featureName'))
      if (await getFeature(tx, body.name)) throw nameExists(`A flag named "${body.name}" already exists (it may be archived).`)
      const clone = await insertFeature(tx, project, { name: body.name, type: source.type, description: source.description, impressionData: source.impression_data }, ctx.clock(), actor.userId)
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-created', project, featureName: body.name, data: { ...toFeature(clone), clonedFrom: source.name } })
      for (const environment of await featureEnvironments(tx, source.name)) {
        if (environment.variants.length > 0) await setEnvironmentVariants(tx, body.name, environment.name, environment.variants)
      }
      for (const strategy of await listStrategies(tx, source.name)) {
        const parameters = { ...strategy.parameters }
        if (body.replaceGroupId && 'groupId' in parameters) parameters.groupId = body.name
        // Stored rows were validated when written, so they are StrategyBody-shaped.
        const copy: StrategyBody = {
          name: strategy.strategy_name,
          title: strategy.title,
          disabled: strategy.disabled,
          sortOrder: strategy.sort_order,
          parameters,
          constraints: strategy.constraints as StrategyBody['constraints'],
          variants: strategy.variants as StrategyBody['variants'],
          segments: strategy.segments,
        }
        const inserted = await insertStrategy(tx, { feature: body.name, project, environment: strategy.environment }, copy, ctx.clock(), actor.userId)
        await writeEvent(tx, actor, ctx.clock, { type: 'feature-strategy-add', project, featureName: body.name, environment: strategy.environment, data: toStrategy(inserted) })
      }
      return clone
    })
    return created(event, ['projects', project, 'features', row.name], await featureView(ctx.db, row))
  }))
}

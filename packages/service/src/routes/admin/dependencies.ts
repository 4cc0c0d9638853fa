import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import { invalidOperation, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import * as dependencies from '../../store/dependencies.js'
import { getFeature, listFeatures } from '../../store/features.js'
import { readBodyWith } from '../../validate.js'
import { change, empty, param } from '../http.js'
import { requireFeature } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const DEPENDENCIES = '/api/admin/projects/:projectId/features/:featureName/dependencies'

const dependencySchema = z.object({
  feature: z.string().min(1, 'is required'),
  enabled: z.boolean().default(true),
  variants: z.array(z.string().min(1)).default([]),
})

/** Parent-child flag dependencies (Unleash: one parent, same project, no grandchildren). */
export function registerDependencyRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.post(DEPENDENCIES, 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const body = await readBodyWith(event, dependencySchema)
    await change(ctx, event, async (tx, actor) => {
      const child = await requireFeature(tx, project, param(event, 'featureName'), { lock: true })
      const parent = await getFeature(tx, body.feature)
      if (!parent || parent.archived_at) throw notFound(`Parent feature "${body.feature}"`)
      if (parent.name === child.name) throw invalidOperation('A flag can not depend on itself.')
      if (parent.project !== child.project) throw invalidOperation('A parent flag must be in the same project as its child.')
      if ((await dependencies.parentsOf(tx, parent.name)).length > 0) throw invalidOperation(`"${parent.name}" has a parent itself; dependencies are one level deep.`)
      if ((await dependencies.childrenOf(tx, child.name)).length > 0) throw invalidOperation(`"${child.name}" has children, so it can not have a parent.`)
      await dependencies.setDependency(tx, { parent: parent.name, child: child.name, enabled: body.enabled, variants: body.variants })
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-dependency-added', project, featureName: child.name, data: body })
    })
    return empty(event)
  }))

  api.get(`${DEPENDENCIES}`, 'admin', eventHandler(async (event) => {
    const child = await requireFeature(ctx.db, param(event, 'projectId'), param(event, 'featureName'))
    return (await dependencies.parentsOf(ctx.db, child.name)).map(dependencies.toDependency)
  }))

  api.delete(`${DEPENDENCIES}/:parent`, 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const parent = param(event, 'parent')
    await change(ctx, event, async (tx, actor) => {
      const child = await requireFeature(tx, project, param(event, 'featureName'), { lock: true })
      if ((await dependencies.deleteDependency(tx, child.name, parent)) === 0) throw notFound(`Dependency of "${child.name}" on "${parent}"`)
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-dependency-removed', project, featureName: child.name, data: { feature: parent } })
    })
    return empty(event)
  }))

  api.delete(DEPENDENCIES, 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    await change(ctx, event, async (tx, actor) => {
      const child = await requireFeature(tx, project, param(event, 'featureName'), { lock: true })
      if ((await dependencies.deleteDependency(tx, child.name)) > 0) {
        await writeEvent(tx, actor, ctx.clock, { type: 'feature-dependencies-removed', project, featureName: child.name })
      }
    })
    return empty(event)
  }))

  // The flags that may become this flag's parent (Unleash's `parents` route).
  api.get('/api/admin/projects/:projectId/features/:featureName/parents', 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const child = await requireFeature(ctx.db, project, param(event, 'featureName'))
    const candidates = await listFeatures(ctx.db, project, false)
    const withParents = new Set<string>()
    for (const candidate of candidates) {
      if ((await dependencies.parentsOf(ctx.db, candidate.name)).length > 0) withParents.add(candidate.name)
    }
    return candidates.map((row) => row.name).filter((name) => name !== child.name && !withParents.has(name))
  }))
}

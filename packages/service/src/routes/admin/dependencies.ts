import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { addDependency, removeDependencies, removeDependency } from '../../domain/dependencies.js'
import { requireFeature } from '../../domain/lookups.js'
import * as dependencies from '../../store/dependencies.js'
import { listFeatures } from '../../store/features.js'
import { readBodyWith } from '../../validate.js'
import { change, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const DEPENDENCIES = '/api/admin/projects/:projectId/features/:featureName/dependencies'

const dependencySchema = z.object({
  feature: z.string().min(1, 'is required'),
  enabled: z.boolean().default(true),
  variants: z.array(z.string().min(1)).default([]),
})

/** Parent-child flag dependencies (Unleash: one parent, same project, no grandchildren). */
export function registerDependencyRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.post(
    DEPENDENCIES,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const body = await readBodyWith(event, dependencySchema)
      await change(ctx, event, (c) => addDependency(c, project, param(event, 'featureName'), body))
      return empty(event)
    }),
  )

  api.get(
    `${DEPENDENCIES}`,
    'admin',
    eventHandler(async (event) => {
      const child = await requireFeature(ctx.db, param(event, 'projectId'), param(event, 'featureName'))
      return (await dependencies.parentsOf(ctx.db, child.name)).map(dependencies.toDependency)
    }),
  )

  api.delete(
    `${DEPENDENCIES}/:parent`,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const parent = param(event, 'parent')
      await change(ctx, event, (c) => removeDependency(c, project, param(event, 'featureName'), parent))
      return empty(event)
    }),
  )

  api.delete(
    DEPENDENCIES,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      await change(ctx, event, (c) => removeDependencies(c, project, param(event, 'featureName')))
      return empty(event)
    }),
  )

  // The flags that may become this flag's parent (Unleash's `parents` route).
  api.get(
    '/api/admin/projects/:projectId/features/:featureName/parents',
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const child = await requireFeature(ctx.db, project, param(event, 'featureName'))
      const candidates = await listFeatures(ctx.db, project, false)
      const withParents = new Set<string>()
      for (const candidate of candidates) {
        if ((await dependencies.parentsOf(ctx.db, candidate.name)).length > 0) withParents.add(candidate.name)
      }
      return candidates.map((row) => row.name).filter((name) => name !== child.name && !withParents.has(name))
    }),
  )
}

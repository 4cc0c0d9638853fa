import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import type { Change } from '../../domain/change.js'
import { archiveFlag, deleteFlag, reviveFlag } from '../../domain/flag-archive.js'
import { markFlagsStale, markFlagStale } from '../../domain/flags.js'
import { requireProject } from '../../domain/lookups.js'
import * as features from '../../store/features.js'
import { readBodyWith } from '../../validate.js'
import { change, empty, param } from '../http.js'
import { featureListView, featureView } from './feature-view.js'
import type { ApiRouter } from '../api-router.js'

const featureListSchema = z.object({ features: z.array(z.string().min(1)).min(1, 'must list at least one flag') })
const staleSchema = featureListSchema.extend({ stale: z.boolean() })

/** Archive, revive, delete and mark stale: one flag or many (Unleash's archive and stale APIs). */
export function registerArchiveRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/archive/features',
    'admin',
    eventHandler(async () => ({
      version: 2,
      features: await featureListView(ctx.db, await features.listAllFeatures(ctx.db, true)),
    })),
  )

  api.get(
    '/api/admin/archive/features/:projectId',
    'admin',
    eventHandler(async (event) => {
      const project = await requireProject(ctx.db, param(event, 'projectId'))
      return {
        version: 2,
        features: await featureListView(ctx.db, await features.listFeatures(ctx.db, project.id, true)),
      }
    }),
  )

  api.post(
    '/api/admin/archive/revive/:featureName',
    'admin',
    eventHandler(async (event) => {
      await change(ctx, event, (c) => reviveFlag(c, param(event, 'featureName')))
      return empty(event)
    }),
  )

  api.delete(
    '/api/admin/archive/:featureName',
    'admin',
    eventHandler(async (event) => {
      await change(ctx, event, (c) => deleteFlag(c, param(event, 'featureName')))
      return empty(event)
    }),
  )

  type BulkAction = (change: Change, name: string, project: string) => Promise<void>
  const bulk = (action: string, run: BulkAction, status: number) =>
    api.post(
      `/api/admin/projects/:projectId/${action}`,
      'admin',
      eventHandler(async (event) => {
        const project = param(event, 'projectId')
        const body = await readBodyWith(event, featureListSchema)
        await change(ctx, event, async (c) => {
          for (const name of body.features) await run(c, name, project)
        })
        return empty(event, status)
      }),
    )
  bulk('archive', (c, name, project) => archiveFlag(c, project, name), 202)
  bulk('revive', reviveFlag, 200)
  bulk('delete', deleteFlag, 200)

  // Unleash ignores flags of the list that do not exist in the project.
  api.post(
    '/api/admin/projects/:projectId/stale',
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const body = await readBodyWith(event, staleSchema)
      await change(ctx, event, (c) => markFlagsStale(c, project, body.features, body.stale))
      return empty(event, 202)
    }),
  )

  for (const [action, value] of [
    ['on', true],
    ['off', false],
  ] as const) {
    api.post(
      `/api/admin/features/:featureName/stale/${action}`,
      'admin',
      eventHandler(async (event) => {
        const name = param(event, 'featureName')
        await change(ctx, event, (c) => markFlagStale(c, name, value))
        return featureView(ctx.db, (await features.getFeature(ctx.db, name)) as features.FeatureRow)
      }),
    )
  }
}

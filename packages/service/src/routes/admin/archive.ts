import { eventHandler } from 'h3'
import { z } from 'zod'
import type { Actor, ServiceContext } from '../../context.js'
import type { Queryable } from '../../db/database.js'
import { notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import * as features from '../../store/features.js'
import { readBodyWith } from '../../validate.js'
import { change, empty, param } from '../http.js'
import { featureListView, featureView } from './feature-view.js'
import { requireFeature, requireProject } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const featureListSchema = z.object({ features: z.array(z.string().min(1)).min(1, 'must list at least one flag') })
const staleSchema = featureListSchema.extend({ stale: z.boolean() })

/** Archive, revive, delete and mark stale: one flag or many (Unleash's archive and stale APIs). */
export function registerArchiveRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const archive = async (tx: Queryable, actor: Actor, name: string, project: string) => {
    const row = await requireFeature(tx, project, name, { lock: true })
    await features.setArchived(tx, name, ctx.clock())
    await writeEvent(tx, actor, ctx.clock, { type: 'feature-archived', project, featureName: name, preData: features.toFeature(row) })
  }
  const revive = async (tx: Queryable, actor: Actor, name: string, project?: string) => {
    const row = await features.lockFeature(tx, name)
    if (!row?.archived_at || (project && row.project !== project)) throw notFound(`Archived feature "${name}"`)
    await features.setArchived(tx, name, null)
    await writeEvent(tx, actor, ctx.clock, { type: 'feature-revived', project: row.project, featureName: name })
  }
  const remove = async (tx: Queryable, actor: Actor, name: string, project?: string) => {
    const row = await features.lockFeature(tx, name)
    if (!row?.archived_at || (project && row.project !== project)) throw notFound(`Archived feature "${name}"`)
    await features.deleteFeature(tx, name)
    await writeEvent(tx, actor, ctx.clock, { type: 'feature-deleted', project: row.project, featureName: name, preData: features.toFeature(row) })
  }
  const stale = async (tx: Queryable, actor: Actor, row: features.FeatureRow, value: boolean) => {
    if (row.stale === value) return
    await features.updateFeature(tx, row.name, { stale: value })
    await writeEvent(tx, actor, ctx.clock, { type: value ? 'feature-stale-on' : 'feature-stale-off', project: row.project, featureName: row.name, data: { stale: value } })
  }

  api.get('/api/admin/archive/features', 'admin', eventHandler(async () => ({
    version: 2,
    features: await featureListView(ctx.db, await features.listAllFeatures(ctx.db, true)),
  })))

  api.get('/api/admin/archive/features/:projectId', 'admin', eventHandler(async (event) => {
    const project = await requireProject(ctx.db, param(event, 'projectId'))
    return { version: 2, features: await featureListView(ctx.db, await features.listFeatures(ctx.db, project.id, true)) }
  }))

  api.post('/api/admin/archive/revive/:featureName', 'admin', eventHandler(async (event) => {
    await change(ctx, event, (tx, actor) => revive(tx, actor, param(event, 'featureName')))
    return empty(event)
  }))

  api.delete('/api/admin/archive/:featureName', 'admin', eventHandler(async (event) => {
    await change(ctx, event, (tx, actor) => remove(tx, actor, param(event, 'featureName')))
    return empty(event)
  }))

  type BulkAction = (tx: Queryable, actor: Actor, name: string, project: string) => Promise<void>
  const bulk = (action: string, run: BulkAction, status: number) =>
    api.post(`/api/admin/projects/:projectId/${action}`, 'admin', eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const body = await readBodyWith(event, featureListSchema)
      await change(ctx, event, async (tx, actor) => {
        for (const name of body.features) await run(tx, actor, name, project)
      })
      return empty(event, status)
    }))
  bulk('archive', archive, 202)
  bulk('revive', revive, 200)
  bulk('delete', remove, 200)

  // Unleash ignores flags of the list that do not exist in the project.
  api.post('/api/admin/projects/:projectId/stale', 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const body = await readBodyWith(event, staleSchema)
    await change(ctx, event, async (tx, actor) => {
      await requireProject(tx, project)
      for (const name of body.features) {
        const row = await features.lockFeature(tx, name)
        if (row && row.project === project && !row.archived_at) await stale(tx, actor, row, body.stale)
      }
    })
    return empty(event, 202)
  }))

  for (const [action, value] of [['on', true], ['off', false]] as const) {
    api.post(`/api/admin/features/:featureName/stale/${action}`, 'admin', eventHandler(async (event) => {
      const name = param(event, 'featureName')
      await change(ctx, event, async (tx, actor) => {
        const row = await features.lockFeature(tx, name)
        if (!row || row.archived_at) throw notFound(`Feature "${name}"`)
        await stale(tx, actor, row, value)
      })
      return featureView(ctx.db, (await features.getFeature(ctx.db, name)) as features.FeatureRow)
    }))
  }
}

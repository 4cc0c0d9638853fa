import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import { badData, nameExists } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { applyJsonPatch, patchSchema } from '../../patch.js'
import { urlSafeName } from '../../schemas/constraint.js'
import * as features from '../../store/features.js'
import { ensureTag, getTagType, tagFeature } from '../../store/tags.js'
import { tagSchema } from '../../schemas/tag.js'
import { parseWith, readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import { featureListView, featureView } from './feature-view.js'
import { requireFeature, requireProject } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const createFeatureSchema = z.object({
  name: urlSafeName,
  type: z.string().min(1).optional(),
  description: z.string().nullish(),
  impressionData: z.boolean().optional(),
  tags: z.array(tagSchema).optional(),
})

const updateFeatureSchema = z.object({
  name: z.string().optional(),
  type: z.string().min(1).optional(),
  description: z.string().nullish(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
  archived: z.boolean().optional(),
})

const FEATURE = '/api/admin/projects/:projectId/features/:featureName'

/** Flags in a project: list, create, read, update, patch, archive (Unleash's project features API). */
export function registerFeatureRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get('/api/admin/projects/:projectId/features', 'admin', eventHandler(async (event) => {
    const project = await requireProject(ctx.db, param(event, 'projectId'))
    const rows = await features.listFeatures(ctx.db, project.id, false)
    return { version: 2, features: await featureListView(ctx.db, rows) }
  }))

  api.post('/api/admin/projects/:projectId/features', 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const body = await readBodyWith(event, createFeatureSchema)
    const row = await change(ctx, event, async (tx, actor) => {
      await requireProject(tx, project)
      if (await features.getFeature(tx, body.name)) throw nameExists(`A flag named "${body.name}" already exists (it may be archived).`)
      const inserted = await features.insertFeature(tx, project, body, ctx.clock(), actor.userId)
      for (const tag of body.tags ?? []) {
        if (!(await getTagType(tx, tag.type))) throw badData(`body.tags: the tag type "${tag.type}" does not exist.`)
        await ensureTag(tx, tag, ctx.clock())
        await tagFeature(tx, body.name, tag, ctx.clock())
      }
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-created', project, featureName: body.name, data: features.toFeature(inserted), tags: body.tags })
      return inserted
    })
    return created(event, ['projects', project, 'features', row.name], await featureView(ctx.db, row))
  }))

  api.get(FEATURE, 'admin', eventHandler(async (event) => {
    const row = await requireFeature(ctx.db, param(event, 'projectId'), param(event, 'featureName'))
    return featureView(ctx.db, row)
  }))

  api.put(FEATURE, 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, updateFeatureSchema)
    return update(event, body)
  }))

  api.patch(FEATURE, 'admin', eventHandler(async (event) => {
    const operations = await readBodyWith(event, patchSchema, [])
    const current = await requireFeature(ctx.db, param(event, 'projectId'), param(event, 'featureName'))
    const patched = applyJsonPatch(features.toFeature(current), operations)
    return update(event, parseWith(updateFeatureSchema, patched, 'patched document'))
  }))

  api.delete(FEATURE, 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const name = param(event, 'featureName')
    await change(ctx, event, async (tx, actor) => {
      const row = await requireFeature(tx, project, name, { lock: true })
      await features.setArchived(tx, name, ctx.clock())
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-archived', project, featureName: name, preData: features.toFeature(row) })
    })
    return empty(event, 202)
  }))

  api.post('/api/admin/features/validate', 'admin', eventHandler(async (event) => {
    const { name } = await readBodyWith(event, z.object({ name: urlSafeName }))
    if (await features.getFeature(ctx.db, name)) throw nameExists(`A flag named "${name}" already exists (it may be archived).`)
    return empty(event)
  }))

  async function update(event: H3Event, body: z.output<typeof updateFeatureSchema>) {
    const project = param(event, 'projectId')
    const name = param(event, 'featureName')
    if (body.name !== undefined && body.name !== name) throw badData('body.name: the name of a flag can not be changed.')
    const row = await change(ctx, event, async (tx, actor) => {
      const before = await requireFeature(tx, project, name, { lock: true })
      const after = await features.updateFeature(tx, name, body)
      await writeEvent(tx, actor, ctx.clock, {
        type: 'feature-metadata-updated',
        project,
        featureName: name,
        data: features.toFeature(after),
        preData: features.toFeature(before),
      })
      if (before.stale !== after.stale) {
        await writeEvent(tx, actor, ctx.clock, { type: after.stale ? 'feature-stale-on' : 'feature-stale-off', project, featureName: name, data: { stale: after.stale } })
      }
      return after
    })
    return featureView(ctx.db, row)
  }
}

import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { archiveFlag } from '../../domain/flag-archive.js'
import { createFlag, refuseTakenName, updateFlag } from '../../domain/flags.js'
import { requireFeature, requireProject } from '../../domain/lookups.js'
import { badData } from '../../errors.js'
import { applyJsonPatch, patchSchema } from '../../patch.js'
import { urlSafeName } from '../../schemas/constraint.js'
import * as features from '../../store/features.js'
import { tagSchema } from '../../schemas/tag.js'
import { parseWith, readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import { featureListView, featureView } from './feature-view.js'
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
  api.get(
    '/api/admin/projects/:projectId/features',
    'admin',
    eventHandler(async (event) => {
      const project = await requireProject(ctx.db, param(event, 'projectId'))
      const rows = await features.listFeatures(ctx.db, project.id, false)
      return { version: 2, features: await featureListView(ctx.db, rows) }
    }),
  )

  api.post(
    '/api/admin/projects/:projectId/features',
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const body = await readBodyWith(event, createFeatureSchema)
      const row = await change(ctx, event, (c) => createFlag(c, project, body))
      return created(event, ['projects', project, 'features', row.name], await featureView(ctx.db, row))
    }),
  )

  api.get(
    FEATURE,
    'admin',
    eventHandler(async (event) => {
      const row = await requireFeature(ctx.db, param(event, 'projectId'), param(event, 'featureName'))
      return featureView(ctx.db, row)
    }),
  )

  api.put(
    FEATURE,
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, updateFeatureSchema)
      return update(event, body)
    }),
  )

  api.patch(
    FEATURE,
    'admin',
    eventHandler(async (event) => {
      const operations = await readBodyWith(event, patchSchema, [])
      const current = await requireFeature(ctx.db, param(event, 'projectId'), param(event, 'featureName'))
      const patched = applyJsonPatch(features.toFeature(current), operations)
      return update(event, parseWith(updateFeatureSchema, patched, 'patched document'))
    }),
  )

  api.delete(
    FEATURE,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const name = param(event, 'featureName')
      await change(ctx, event, (c) => archiveFlag(c, project, name))
      return empty(event, 202)
    }),
  )

  api.post(
    '/api/admin/features/validate',
    'admin',
    eventHandler(async (event) => {
      const { name } = await readBodyWith(event, z.object({ name: urlSafeName }))
      await refuseTakenName(ctx.db, name)
      return empty(event)
    }),
  )

  async function update(event: H3Event, body: z.output<typeof updateFeatureSchema>) {
    const project = param(event, 'projectId')
    const name = param(event, 'featureName')
    if (body.name !== undefined && body.name !== name)
      throw badData('body.name: the name of a flag can not be changed.')
    const row = await change(ctx, event, (c) => updateFlag(c, project, name, body))
    return featureView(ctx.db, row)
  }
}

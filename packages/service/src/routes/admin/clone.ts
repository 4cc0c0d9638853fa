import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { cloneFlag } from '../../domain/flag-clone.js'
import { urlSafeName } from '../../schemas/constraint.js'
import { readBodyWith } from '../../validate.js'
import { change, created, param } from '../http.js'
import { featureView } from './feature-view.js'
import type { ApiRouter } from '../api-router.js'

const cloneSchema = z.object({ name: urlSafeName, replaceGroupId: z.boolean().default(true) })

/**
 * `POST /api/admin/projects/:p/features/:f/clone` (Unleash): a new flag with the same metadata,
 * strategies and variants in every environment, disabled everywhere; `groupId` parameters are
 * replaced by the new name unless `replaceGroupId` is false.
 */
export function registerCloneRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.post(
    '/api/admin/projects/:projectId/features/:featureName/clone',
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const body = await readBodyWith(event, cloneSchema)
      const source = param(event, 'featureName')
      const row = await change(ctx, event, (c) =>
        cloneFlag(c, { project, source, name: body.name, replaceGroupId: body.replaceGroupId }),
      )
      return created(event, ['projects', project, 'features', row.name], await featureView(ctx.db, row))
    }),
  )
}

import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { requireTaggableFlag, retagFlag, tagFlag, untagFlag } from '../../domain/feature-tags.js'
import * as tags from '../../store/tags.js'
import { tagSchema } from '../../schemas/tag.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const bulkSchema = z.object({ addedTags: z.array(tagSchema).default([]), removedTags: z.array(tagSchema).default([]) })

const TAGS = '/api/admin/features/:featureName/tags'

/** Tags on one flag (`/api/admin/features/:featureName/tags`); tags are created on first use. */
export function registerFeatureTagRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    TAGS,
    'admin',
    eventHandler(async (event) => {
      const row = await requireTaggableFlag(ctx.db, param(event, 'featureName'))
      return { version: 1, tags: await tags.featureTags(ctx.db, row.name) }
    }),
  )

  api.post(
    TAGS,
    'admin',
    eventHandler(async (event) => {
      const tag = await readBodyWith(event, tagSchema)
      const name = param(event, 'featureName')
      await change(ctx, event, (c) => tagFlag(c, name, tag))
      return created(event, ['features', name, 'tags'], tag)
    }),
  )

  api.put(
    TAGS,
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, bulkSchema)
      const name = param(event, 'featureName')
      await change(ctx, event, (c) => retagFlag(c, name, body.addedTags, body.removedTags))
      return { version: 1, tags: await tags.featureTags(ctx.db, name) }
    }),
  )

  api.delete(
    `${TAGS}/:type/:value`,
    'admin',
    eventHandler(async (event) => {
      const name = param(event, 'featureName')
      const tag = { type: param(event, 'type'), value: param(event, 'value') }
      await change(ctx, event, (c) => untagFlag(c, name, tag))
      return empty(event)
    }),
  )
}

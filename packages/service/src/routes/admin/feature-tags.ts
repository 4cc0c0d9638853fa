import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import { badData, nameExists, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { getFeature } from '../../store/features.js'
import * as tags from '../../store/tags.js'
import { tagSchema } from '../../schemas/tag.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const bulkSchema = z.object({ addedTags: z.array(tagSchema).default([]), removedTags: z.array(tagSchema).default([]) })

const TAGS = '/api/admin/features/:featureName/tags'

/** Tags on one flag (`/api/admin/features/:featureName/tags`); tags are created on first use. */
export function registerFeatureTagRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const requireFlag = async (q: Parameters<typeof getFeature>[0], name: string) => {
    const row = await getFeature(q, name)
    if (!row) throw notFound(`Feature "${name}"`)
    return row
  }
  const add = async (q: Parameters<typeof getFeature>[0], name: string, tag: tags.Tag) => {
    if (!(await tags.getTagType(q, tag.type))) throw badData(`body.type: the tag type "${tag.type}" does not exist.`)
    await tags.ensureTag(q, tag, ctx.clock())
    return tags.tagFeature(q, name, tag, ctx.clock())
  }

  api.get(TAGS, 'admin', eventHandler(async (event) => {
    const row = await requireFlag(ctx.db, param(event, 'featureName'))
    return { version: 1, tags: await tags.featureTags(ctx.db, row.name) }
  }))

  api.post(TAGS, 'admin', eventHandler(async (event) => {
    const tag = await readBodyWith(event, tagSchema)
    const name = param(event, 'featureName')
    await change(ctx, event, async (tx, actor) => {
      const row = await requireFlag(tx, name)
      if (!(await add(tx, name, tag))) throw nameExists(`"${name}" already has the tag "${tag.type}:${tag.value}".`)
      await writeEvent(tx, actor, ctx.clock, { type: 'feature-tagged', project: row.project, featureName: name, data: tag, tags: [tag] })
    })
    return created(event, ['features', name, 'tags'], tag)
  }))

  api.put(TAGS, 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, bulkSchema)
    const name = param(event, 'featureName')
    await change(ctx, event, async (tx, actor) => {
      const row = await requireFlag(tx, name)
      for (const tag of body.addedTags) {
        if (await add(tx, name, tag)) await writeEvent(tx, actor, ctx.clock, { type: 'feature-tagged', project: row.project, featureName: name, data: tag, tags: [tag] })
      }
      for (const tag of body.removedTags) {
        if (await tags.untagFeature(tx, name, tag)) await writeEvent(tx, actor, ctx.clock, { type: 'feature-untagged', project: row.project, featureName: name, preData: tag, tags: [tag] })
      }
    })
    return { version: 1, tags: await tags.featureTags(ctx.db, name) }
  }))

  api.delete(`${TAGS}/:type/:value`, 'admin', eventHandler(async (event) => {
    const name = param(event, 'featureName')
    const tag = { type: param(event, 'type'), value: param(event, 'value') }
    await change(ctx, event, async (tx, actor) => {
      const row = await requireFlag(tx, name)
      if (await tags.untagFeature(tx, name, tag)) {
        await writeEvent(tx, actor, ctx.clock, { type: 'feature-untagged', project: row.project, featureName: name, preData: tag, tags: [tag] })
      }
    })
    return empty(event)
  }))
}

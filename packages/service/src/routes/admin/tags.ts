import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { createTag, createTagType, deleteTag, deleteTagType, updateTagType } from '../../domain/tags.js'
import { nameExists, notFound } from '../../errors.js'
import { urlSafeName } from '../../schemas/constraint.js'
import * as tags from '../../store/tags.js'
import { tagSchema } from '../../schemas/tag.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const tagTypeSchema = z.object({ name: urlSafeName, description: z.string().nullish(), icon: z.string().nullish() })

/** Tags and tag types (`/api/admin/tags`, `/api/admin/tag-types`). */
export function registerTagRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/tags',
    'admin',
    eventHandler(async () => ({ version: 1, tags: await tags.listTags(ctx.db) })),
  )

  api.get(
    '/api/admin/tags/:type',
    'admin',
    eventHandler(async (event) => ({ version: 1, tags: await tags.listTags(ctx.db, param(event, 'type')) })),
  )

  api.get(
    '/api/admin/tags/:type/:value',
    'admin',
    eventHandler(async (event) => {
      const tag = { type: param(event, 'type'), value: param(event, 'value') }
      if (!(await tags.tagExists(ctx.db, tag))) throw notFound(`Tag "${tag.type}:${tag.value}"`)
      return { version: 1, tag }
    }),
  )

  api.post(
    '/api/admin/tags',
    'admin',
    eventHandler(async (event) => {
      const tag = await readBodyWith(event, tagSchema)
      await change(ctx, event, (c) => createTag(c, tag))
      return created(event, ['tags', tag.type, tag.value], { version: 1, tag })
    }),
  )

  api.delete(
    '/api/admin/tags/:type/:value',
    'admin',
    eventHandler(async (event) => {
      const tag = { type: param(event, 'type'), value: param(event, 'value') }
      await change(ctx, event, (c) => deleteTag(c, tag))
      return empty(event)
    }),
  )

  api.get(
    '/api/admin/tag-types',
    'admin',
    eventHandler(async () => ({ version: 1, tagTypes: (await tags.listTagTypes(ctx.db)).map(tags.toTagType) })),
  )

  api.get(
    '/api/admin/tag-types/:name',
    'admin',
    eventHandler(async (event) => {
      const row = await tags.getTagType(ctx.db, param(event, 'name'))
      if (!row) throw notFound(`Tag type "${param(event, 'name')}"`)
      return { version: 1, tagType: tags.toTagType(row) }
    }),
  )

  api.post(
    '/api/admin/tag-types/validate',
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, tagTypeSchema)
      if (await tags.getTagType(ctx.db, body.name)) throw nameExists(`The tag type "${body.name}" already exists.`)
      return { valid: true, tagType: body }
    }),
  )

  api.post(
    '/api/admin/tag-types',
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, tagTypeSchema)
      const row = { name: body.name, description: body.description ?? null, icon: body.icon ?? null }
      await change(ctx, event, (c) => createTagType(c, row))
      return created(event, ['tag-types', row.name], tags.toTagType(row))
    }),
  )

  api.put(
    '/api/admin/tag-types/:name',
    'admin',
    eventHandler(async (event) => {
      const name = param(event, 'name')
      const body = await readBodyWith(event, tagTypeSchema.omit({ name: true }))
      await change(ctx, event, (c) =>
        updateTagType(c, { name, description: body.description ?? null, icon: body.icon ?? null }, body),
      )
      return empty(event)
    }),
  )

  api.delete(
    '/api/admin/tag-types/:name',
    'admin',
    eventHandler(async (event) => {
      const name = param(event, 'name')
      await change(ctx, event, (c) => deleteTagType(c, name))
      return empty(event)
    }),
  )
}

import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { createSegment, deleteSegment, updateSegment } from '../../domain/segments.js'
import { nameExists, notFound } from '../../errors.js'
import { constraintSchema } from '../../schemas/constraint.js'
import * as segments from '../../store/segments.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, intParam } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const upsertSegmentSchema = z.object({
  // Unleash's varchar(255); here the unique index's limit too (2704 bytes: 255 characters of 4 bytes fit).
  name: z.string().min(1, 'is required').max(255, 'must be at most 255 characters'),
  description: z.string().nullish(),
  project: z.string().nullish(),
  constraints: z.array(constraintSchema),
})

/** `/api/admin/segments` (Unleash's segment API: 201 on create, 204 on update and delete, 409 in use). */
export function registerSegmentRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const load = async (id: number) => {
    const row = await segments.getSegment(ctx.db, id)
    if (!row) throw notFound(`Segment ${id}`)
    return row
  }

  api.get(
    '/api/admin/segments',
    'admin',
    eventHandler(async () => ({ segments: (await segments.listSegments(ctx.db)).map(segments.toSegment) })),
  )

  api.get(
    '/api/admin/segments/:id',
    'admin',
    eventHandler(async (event) => segments.toSegment(await load(intParam(event, 'id')))),
  )

  api.get(
    '/api/admin/segments/:id/strategies',
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      await load(id)
      return { strategies: await segments.segmentStrategies(ctx.db, id), changeRequestStrategies: [] }
    }),
  )

  api.post(
    '/api/admin/segments/validate',
    'admin',
    eventHandler(async (event) => {
      const { name } = await readBodyWith(event, z.object({ name: z.string().min(1, 'is required') }))
      if (await segments.segmentNameTaken(ctx.db, name)) throw nameExists(`A segment named "${name}" already exists.`)
      return empty(event, 204)
    }),
  )

  api.post(
    '/api/admin/segments',
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, upsertSegmentSchema)
      const row = await change(ctx, event, (c) => createSegment(c, body))
      return created(event, ['segments', row.id], segments.toSegment(row))
    }),
  )

  api.put(
    '/api/admin/segments/:id',
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      const body = await readBodyWith(event, upsertSegmentSchema)
      await change(ctx, event, (c) => updateSegment(c, id, body))
      return empty(event, 204)
    }),
  )

  api.delete(
    '/api/admin/segments/:id',
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      await change(ctx, event, (c) => deleteSegment(c, id))
      return empty(event, 204)
    }),
  )
}

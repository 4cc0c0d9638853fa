import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import { invalidOperation, nameExists, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { urlSafeName } from '../../schemas/constraint.js'
import * as environments from '../../store/environments.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const createEnvironmentSchema = z.object({
  name: urlSafeName,
  type: z.string().min(1, 'is required'),
  enabled: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
})

const updateEnvironmentSchema = z.object({ type: z.string().min(1, 'is required'), sortOrder: z.number().int().optional() })

/** `/api/admin/environments` (Unleash's environment API). */
export function registerEnvironmentRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const load = async (name: string) => {
    const row = await environments.getEnvironment(ctx.db, name)
    if (!row) throw notFound(`Environment "${name}"`)
    return row
  }

  api.get('/api/admin/environments', 'admin', eventHandler(async () => {
    const rows = await environments.listEnvironments(ctx.db)
    return { version: 1, environments: rows.map(environments.toEnvironment) }
  }))

  api.get('/api/admin/environments/:name', 'admin', eventHandler(async (event) => environments.toEnvironment(await load(param(event, 'name')))))

  api.post('/api/admin/environments', 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, createEnvironmentSchema)
    await change(ctx, event, async (tx, actor) => {
      if (await environments.getEnvironment(tx, body.name)) throw nameExists(`An environment named "${body.name}" already exists.`)
      await environments.insertEnvironment(tx, body, ctx.clock())
      await writeEvent(tx, actor, ctx.clock, { type: 'environment-created', environment: body.name, data: body })
    })
    return created(event, ['environments', body.name], environments.toEnvironment(await load(body.name)))
  }))

  api.put('/api/admin/environments/update/:name', 'admin', eventHandler(async (event) => {
    const name = param(event, 'name')
    const body = await readBodyWith(event, updateEnvironmentSchema)
    await change(ctx, event, async (tx, actor) => {
      const before = await environments.getEnvironment(tx, name)
      if (!before) throw notFound(`Environment "${name}"`)
      await environments.updateEnvironment(tx, name, body.type, body.sortOrder)
      await writeEvent(tx, actor, ctx.clock, { type: 'environment-updated', environment: name, data: body, preData: environments.toEnvironment(before) })
    })
    return environments.toEnvironment(await load(name))
  }))

  for (const [action, enabled] of [['on', true], ['off', false]] as const) {
    api.post(`/api/admin/environments/:name/${action}`, 'admin', eventHandler(async (event) => {
      const name = param(event, 'name')
      await change(ctx, event, async (tx, actor) => {
        if (!(await environments.getEnvironment(tx, name))) throw notFound(`Environment "${name}"`)
        await environments.setEnvironmentEnabled(tx, name, enabled)
        await writeEvent(tx, actor, ctx.clock, { type: 'environment-updated', environment: name, data: { enabled } })
      })
      return empty(event, 204)
    }))
  }

  api.delete('/api/admin/environments/:name', 'admin', eventHandler(async (event) => {
    const name = param(event, 'name')
    await change(ctx, event, async (tx, actor) => {
      const row = await environments.getEnvironment(tx, name)
      if (!row) throw notFound(`Environment "${name}"`)
      if (row.protected) throw invalidOperation(`The environment "${name}" is protected and can not be deleted.`)
      await environments.deleteEnvironment(tx, name)
      await writeEvent(tx, actor, ctx.clock, { type: 'environment-deleted', environment: name, preData: environments.toEnvironment(row) })
    })
    return empty(event)
  }))
}

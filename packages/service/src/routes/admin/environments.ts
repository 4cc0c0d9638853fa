import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import {
  createEnvironment,
  deleteEnvironment,
  setEnvironmentEnabled,
  updateEnvironment,
} from '../../domain/environments.js'
import { notFound } from '../../errors.js'
import { urlSafeName } from '../../schemas/constraint.js'
import * as environments from '../../store/environments.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const createEnvironmentSchema = z.object({
  name: urlSafeName,
  type: z.string().min(1, 'is required').max(255, 'must be at most 255 characters'),
  enabled: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
})

const updateEnvironmentSchema = z.object({
  type: z.string().min(1, 'is required').max(255, 'must be at most 255 characters'),
  sortOrder: z.number().int().optional(),
})

/** `/api/admin/environments` (Unleash's environment API). */
export function registerEnvironmentRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const load = async (name: string) => {
    const row = await environments.getEnvironment(ctx.db, name)
    if (!row) throw notFound(`Environment "${name}"`)
    return row
  }

  api.get(
    '/api/admin/environments',
    'admin',
    eventHandler(async () => {
      const rows = await environments.listEnvironments(ctx.db)
      return { version: 1, environments: rows.map(environments.toEnvironment) }
    }),
  )

  api.get(
    '/api/admin/environments/:name',
    'admin',
    eventHandler(async (event) => environments.toEnvironment(await load(param(event, 'name')))),
  )

  api.post(
    '/api/admin/environments',
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, createEnvironmentSchema)
      await change(ctx, event, (c) => createEnvironment(c, body))
      return created(event, ['environments', body.name], environments.toEnvironment(await load(body.name)))
    }),
  )

  api.put(
    '/api/admin/environments/update/:name',
    'admin',
    eventHandler(async (event) => {
      const name = param(event, 'name')
      const body = await readBodyWith(event, updateEnvironmentSchema)
      await change(ctx, event, (c) => updateEnvironment(c, name, body))
      return environments.toEnvironment(await load(name))
    }),
  )

  for (const [action, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    api.post(
      `/api/admin/environments/:name/${action}`,
      'admin',
      eventHandler(async (event) => {
        const name = param(event, 'name')
        await change(ctx, event, (c) => setEnvironmentEnabled(c, name, enabled))
        return empty(event, 204)
      }),
    )
  }

  api.delete(
    '/api/admin/environments/:name',
    'admin',
    eventHandler(async (event) => {
      const name = param(event, 'name')
      await change(ctx, event, (c) => deleteEnvironment(c, name))
      return empty(event)
    }),
  )
}

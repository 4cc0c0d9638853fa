import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import type { Queryable } from '../../db/database.js'
import { badData, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import * as apiTokens from '../../store/api-tokens.js'
import { newApiTokenSecret } from '../../tokens.js'
import { dateTime, readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import { requireEnvironment, requireProject } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const createTokenSchema = z.object({
  tokenName: z.string().min(1).optional(),
  username: z.string().min(1).optional(),
  type: z.string().transform((type) => type.toLowerCase()).pipe(z.enum(['client', 'backend', 'admin', 'frontend'], { error: () => 'must be one of client, backend, admin, frontend' })),
  environment: z.string().min(1).optional(),
  project: z.string().min(1).optional(),
  projects: z.array(z.string().min(1)).min(1).optional(),
  expiresAt: dateTime.nullish(),
})

/** `/api/admin/api-tokens` (Unleash's API token API). Secrets are shown once, at creation. */
export function registerApiTokenRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const load = async (q: Queryable, secretOrId: string) => {
    const row = await apiTokens.findApiToken(q, secretOrId)
    if (!row) throw notFound('API token')
    return row
  }

  api.get('/api/admin/api-tokens', 'admin', eventHandler(async () => ({ tokens: (await apiTokens.listApiTokens(ctx.db)).map((row) => apiTokens.toApiToken(row)) })))

  api.post('/api/admin/api-tokens', 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, createTokenSchema)
    const tokenName = body.tokenName ?? body.username
    if (!tokenName) throw badData('body.tokenName is required.')
    const admin = body.type === 'admin'
    const environment = admin ? '*' : (body.environment ?? 'development')
    const projects = admin ? ['*'] : (body.projects ?? [body.project ?? '*'])
    if (!admin && environment === '*') throw badData('body.environment: a client or frontend token needs one environment.')
    const secret = newApiTokenSecret(projects.length === 1 ? (projects[0] as string) : '[]', environment)
    const row = await change(ctx, event, async (tx, actor) => {
      if (!admin) await requireEnvironment(tx, environment)
      for (const project of projects) if (project !== '*') await requireProject(tx, project)
      const inserted = await apiTokens.insertApiToken(tx, { secret, tokenName, type: body.type, environment, projects, expiresAt: body.expiresAt ?? null }, ctx.clock())
      await writeEvent(tx, actor, ctx.clock, { type: 'api-token-created', environment: admin ? null : environment, data: apiTokens.toApiToken(inserted) })
      return inserted
    })
    return created(event, ['api-tokens', row.id], apiTokens.toApiToken(row, secret))
  }))

  api.put('/api/admin/api-tokens/:token', 'admin', eventHandler(async (event) => {
    const { expiresAt } = await readBodyWith(event, z.object({ expiresAt: dateTime }))
    await change(ctx, event, async (tx, actor) => {
      const row = await load(tx, param(event, 'token'))
      await apiTokens.updateApiTokenExpiry(tx, row.id, expiresAt)
      await writeEvent(tx, actor, ctx.clock, { type: 'api-token-updated', data: { id: row.id, expiresAt }, preData: apiTokens.toApiToken(row) })
    })
    return empty(event)
  }))

  api.delete('/api/admin/api-tokens/:token', 'admin', eventHandler(async (event) => {
    await change(ctx, event, async (tx, actor) => {
      const row = await load(tx, param(event, 'token'))
      await apiTokens.deleteApiToken(tx, row.id)
      await writeEvent(tx, actor, ctx.clock, { type: 'api-token-deleted', preData: apiTokens.toApiToken(row) })
    })
    return empty(event)
  }))
}

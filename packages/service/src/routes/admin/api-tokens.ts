import { eventHandler, type H3Event } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import type { Queryable } from '../../db/database.js'
import { badData, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import * as apiTokens from '../../store/api-tokens.js'
import { newApiTokenSecret } from '../../token-secrets.js'
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

/**
 * `/api/admin/api-tokens` (Unleash's API token API). Secrets are shown once, at creation, and a
 * token is updated or deleted by its id only: Unleash also takes the secret in the path, where
 * access logs, proxies and browser history keep it.
 */
export function registerApiTokenRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const load = async (q: Queryable, event: H3Event) => {
    const id = tokenId(event)
    const row = await apiTokens.getApiToken(q, id)
    if (!row) throw notFound(`API token ${id}`)
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

  api.put('/api/admin/api-tokens/:id', 'admin', eventHandler(async (event) => {
    const { expiresAt } = await readBodyWith(event, z.object({ expiresAt: dateTime }))
    await change(ctx, event, async (tx, actor) => {
      const row = await load(tx, event)
      await apiTokens.updateApiTokenExpiry(tx, row.id, expiresAt)
      await writeEvent(tx, actor, ctx.clock, { type: 'api-token-updated', data: { id: row.id, expiresAt }, preData: apiTokens.toApiToken(row) })
    })
    return empty(event)
  }))

  api.delete('/api/admin/api-tokens/:id', 'admin', eventHandler(async (event) => {
    await change(ctx, event, async (tx, actor) => {
      const row = await load(tx, event)
      await apiTokens.deleteApiToken(tx, row.id)
      await writeEvent(tx, actor, ctx.clock, { type: 'api-token-deleted', preData: apiTokens.toApiToken(row) })
    })
    return empty(event)
  }))
}

// --- Internal helpers ---

/** The `:id` of a token route; 400 for anything else, without echoing it (it may be a secret). */
function tokenId(event: H3Event): number {
  const text = param(event, 'id')
  if (!/^\d+$/.test(text)) {
    throw badData('The path parameter "id" must be an integer: use the token\'s id (GET /api/admin/api-tokens lists them), never its secret, in a URL.')
  }
  return Number(text)
}

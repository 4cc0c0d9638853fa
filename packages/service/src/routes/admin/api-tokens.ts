import { eventHandler, type H3Event } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { createApiToken, deleteApiToken, setApiTokenExpiry } from '../../domain/api-tokens.js'
import { badData } from '../../errors.js'
import * as apiTokens from '../../store/api-tokens.js'
import { dateTime, readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const createTokenSchema = z.object({
  tokenName: z.string().min(1).optional(),
  username: z.string().min(1).optional(),
  type: z
    .string()
    .transform((type) => type.toLowerCase())
    .pipe(
      z.enum(['client', 'backend', 'admin', 'frontend'], {
        error: () => 'must be one of client, backend, admin, frontend',
      }),
    ),
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
  api.get(
    '/api/admin/api-tokens',
    'admin',
    eventHandler(async () => ({
      tokens: (await apiTokens.listApiTokens(ctx.db)).map((row) => apiTokens.toApiToken(row)),
    })),
  )

  api.post(
    '/api/admin/api-tokens',
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, createTokenSchema)
      const tokenName = body.tokenName ?? body.username
      if (!tokenName) throw badData('body.tokenName is required.')
      const input = {
        tokenName,
        type: body.type,
        environment: body.environment,
        projects: body.projects ?? [body.project ?? '*'],
        expiresAt: body.expiresAt,
      }
      const { row, secret } = await change(ctx, event, (c) => createApiToken(c, input))
      return created(event, ['api-tokens', row.id], apiTokens.toApiToken(row, secret))
    }),
  )

  api.put(
    '/api/admin/api-tokens/:id',
    'admin',
    eventHandler(async (event) => {
      const { expiresAt } = await readBodyWith(event, z.object({ expiresAt: dateTime }))
      const id = tokenId(event)
      await change(ctx, event, (c) => setApiTokenExpiry(c, id, expiresAt))
      return empty(event)
    }),
  )

  api.delete(
    '/api/admin/api-tokens/:id',
    'admin',
    eventHandler(async (event) => {
      const id = tokenId(event)
      await change(ctx, event, (c) => deleteApiToken(c, id))
      return empty(event)
    }),
  )
}

// --- Internal helpers ---

/** The `:id` of a token route; 400 for anything else, without echoing it (it may be a secret). */
function tokenId(event: H3Event): number {
  const text = param(event, 'id')
  if (!/^\d+$/.test(text)) {
    throw badData(
      'The path parameter "id" must be an integer: use the token\'s id (GET /api/admin/api-tokens lists them), never its secret, in a URL.',
    )
  }
  return Number(text)
}

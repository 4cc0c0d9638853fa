import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import { z } from 'zod'
import { currentUser } from '../../auth.js'
import type { ServiceContext } from '../../service-context.js'
import { deleteOwnPersonalToken, issuePersonalToken, revokePersonalToken } from '../../domain/personal-tokens.js'
import * as tokens from '../../store/personal-tokens.js'
import type { ApiTokenRow } from '../../store/api-tokens.js'
import { toUser } from '../../store/users.js'
import { dateTime, readBodyWith } from '../../validate.js'
import { change, created, empty, intParam } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const createTokenSchema = z.object({
  description: z.string().min(1, 'is required'),
  expiresAt: dateTime.nullish(),
})

/**
 * Personal access tokens: each user manages their own under `/api/admin/user/tokens` (Unleash).
 * Vexil additions: an admin can issue one for any person (`POST /api/admin/user-admin/:id/tokens`),
 * so a script can bootstrap a user that has no password login, and can list and revoke every
 * user's tokens (`/api/admin/personal-tokens`), since tokens it issued are otherwise seen only
 * by their owner.
 */
export function registerPersonalTokenRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const issue = async (event: H3Event, userId: number) => {
    const body = await readBodyWith(event, createTokenSchema)
    const { row, secret } = await change(ctx, event, (c) => issuePersonalToken(c, { userId, ...body }))
    return created(event, ['user', 'tokens', row.id], tokens.toPersonalToken(row, secret))
  }

  // "Who am I": a user, or (as Unleash answers for an API token's ApiUser) the admin token by name.
  api.get(
    '/api/admin/user',
    'user',
    eventHandler(async (event) => {
      const principal = event.context.principal
      if (principal?.kind === 'api-token') {
        return {
          user: toApiTokenUser(principal.token),
          permissions: [{ permission: 'ADMIN' }],
          feedback: [],
          splash: {},
        }
      }
      const user = currentUser(event)
      return {
        user: toUser(user),
        permissions: user.root_role === 'Admin' ? [{ permission: 'ADMIN' }] : [],
        feedback: [],
        splash: {},
      }
    }),
  )

  api.get(
    '/api/admin/user/tokens',
    'personal',
    eventHandler(async (event) => ({
      pats: (await tokens.listPersonalTokens(ctx.db, currentUser(event).id)).map((row) => tokens.toPersonalToken(row)),
    })),
  )

  api.post(
    '/api/admin/user/tokens',
    'personal',
    eventHandler((event) => issue(event, currentUser(event).id)),
  )

  api.delete(
    '/api/admin/user/tokens/:id',
    'personal',
    eventHandler(async (event) => {
      const user = currentUser(event)
      const id = intParam(event, 'id')
      await change(ctx, event, (c) => deleteOwnPersonalToken(c, user.id, id))
      return empty(event)
    }),
  )

  api.post(
    '/api/admin/user-admin/:id/tokens',
    'admin',
    eventHandler((event) => issue(event, intParam(event, 'id'))),
  )

  api.get(
    '/api/admin/personal-tokens',
    'admin',
    eventHandler(async () => ({ pats: await tokens.listAllPersonalTokens(ctx.db) })),
  )

  api.delete(
    '/api/admin/personal-tokens/:id',
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      await change(ctx, event, (c) => revokePersonalToken(c, id))
      return empty(event)
    }),
  )
}

// --- Internal helpers ---

/** An admin API token as the caller of `GET /api/admin/user` (only admin tokens reach it: auth.ts). */
function toApiTokenUser(token: ApiTokenRow) {
  return {
    id: null,
    name: token.token_name,
    username: token.token_name,
    email: null,
    isAPI: true,
    accountType: 'Admin token',
    rootRole: 1,
  }
}

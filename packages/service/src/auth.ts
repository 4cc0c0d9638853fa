import { type H3Event, getRequestHeader, getRequestURL } from 'h3'
import type { Actor, ServiceContext } from './context.js'
import { ServiceError } from './errors.js'
import { type ApiTokenRow, findApiTokenBySecret, markApiTokenSeen } from './store/api-tokens.js'
import { findUserByPersonalToken } from './store/personal-tokens.js'
import { markUserSeen, type UserRow } from './store/users.js'

export type Principal =
  | { kind: 'api-token'; token: ApiTokenRow }
  | { kind: 'user'; user: UserRow; tokenId: number }

declare module 'h3' {
  interface H3EventContext {
    principal?: Principal
  }
}

/** Which kind of caller a path needs. */
type Requirement = 'client' | 'admin' | 'user' | 'none'

function requirementOf(path: string): Requirement {
  if (path.startsWith('/api/client/')) return 'client'
  // Any user may manage their own personal tokens and read their own profile.
  if (path === '/api/admin/user' || path.startsWith('/api/admin/user/')) return 'user'
  // Insights: any authenticated user or an admin token (issue 7); a client token is not a user.
  if (path === '/api/admin/insights' || path === '/api/admin/dashboard/executive') return 'user'
  if (path.startsWith('/api/admin/') || path === '/api/admin') return 'admin'
  return 'none'
}

/**
 * Authenticates `/api/client/*` (client tokens) and `/api/admin/*` (admin tokens, or personal
 * tokens of users whose root role is Admin). 401: no or unknown token; 403: a token without the
 * permission. The principal is left in `event.context.principal`.
 */
export function createAuthMiddleware(ctx: ServiceContext) {
  const lastSeenWrite = new Map<string, number>()
  // Insights need "seen in the past 60 days", not every request: throttle the writes.
  const shouldWrite = (key: string, now: Date) => {
    const last = lastSeenWrite.get(key)
    if (last !== undefined && now.getTime() - last < ctx.config.userSeenThrottleMs) return false
    lastSeenWrite.set(key, now.getTime())
    return true
  }

  return async (event: H3Event): Promise<void> => {
    const requirement = requirementOf(getRequestURL(event).pathname)
    if (requirement === 'none') return
    const principal = await authenticate(ctx, event)
    const now = ctx.clock()
    if (principal.kind === 'user' && shouldWrite(`user:${principal.user.id}`, now)) {
      await markUserSeen(ctx.db, principal.user.id, now)
      principal.user.seen_at = now
    } else if (principal.kind === 'api-token' && shouldWrite(`token:${principal.token.id}`, now)) {
      await markApiTokenSeen(ctx.db, principal.token.id, now)
    }
    authorize(principal, requirement)
    event.context.principal = principal
  }
}

/** The actor written to the event log for this request. */
export function actorOf(event: H3Event): Actor {
  const principal = event.context.principal
  if (!principal) return { name: 'system' }
  if (principal.kind === 'user') {
    const user = principal.user
    return { name: user.email ?? user.username ?? user.name ?? `user-${user.id}`, userId: user.id }
  }
  return { name: principal.token.token_name }
}

/** The calling user, for routes about "my" resources; 403 for API tokens. */
export function currentUser(event: H3Event): UserRow {
  const principal = event.context.principal
  if (principal?.kind !== 'user') throw new ServiceError('NoAccessError', 'This endpoint needs a user: use a personal access token.')
  return principal.user
}

/** The client token of a `/api/client/*` request (the middleware admitted only those). */
export function clientToken(event: H3Event): ApiTokenRow {
  const principal = event.context.principal
  if (principal?.kind !== 'api-token') throw noAccess('a client API token')
  return principal.token
}

/** The secret in `Authorization: Bearer <secret>` or `Authorization: <secret>`, if any (Unleash strips "Bearer " case-insensitively). */
export function presentedSecret(event: H3Event): string | undefined {
  return getRequestHeader(event, 'authorization')?.trim().replace(/^bearer(\s+|$)/i, '').trim() || undefined
}

// --- Internal helpers ---

async function authenticate(ctx: ServiceContext, event: H3Event): Promise<Principal> {
  const secret = presentedSecret(event)
  if (!secret) {
    throw new ServiceError('AuthenticationRequired', 'You must provide an API token in the Authorization header.')
  }
  const now = ctx.clock()
  const token = await findApiTokenBySecret(ctx.db, secret)
  if (token) {
    if (token.expires_at && token.expires_at.getTime() <= now.getTime()) throw invalidToken('The API token has expired.')
    return { kind: 'api-token', token }
  }
  const personal = await findUserByPersonalToken(ctx.db, secret)
  if (personal) {
    if (personal.expiresAt && personal.expiresAt.getTime() <= now.getTime()) throw invalidToken('The personal access token has expired.')
    return { kind: 'user', user: personal.user, tokenId: personal.tokenId }
  }
  throw invalidToken('The provided API token is not valid.')
}

function authorize(principal: Principal, requirement: Requirement): void {
  if (requirement === 'user') {
    if (principal.kind !== 'user' && principal.token.type !== 'admin') throw noAccess('a personal access token or an admin token')
    return
  }
  if (requirement === 'client') {
    const ok = principal.kind === 'api-token' && (principal.token.type === 'client' || principal.token.type === 'backend')
    if (!ok) throw noAccess('a client API token')
    return
  }
  const admin = principal.kind === 'api-token' ? principal.token.type === 'admin' : principal.user.root_role === 'Admin'
  if (!admin) throw noAccess('the ADMIN permission (an admin API token or an Admin user\'s personal access token)')
}

function invalidToken(message: string): ServiceError {
  return new ServiceError('InvalidTokenError', message)
}

function noAccess(what: string): ServiceError {
  return new ServiceError('NoAccessError', `You don't have access to this endpoint: it requires ${what}.`)
}

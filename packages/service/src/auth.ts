import { type H3Event, getRequestHeader, getRouterParam } from 'h3'
import { notFound, ServiceError } from './errors.js'
import type { Access } from './routes/api-router.js'
import type { Actor, ServiceContext } from './service-context.js'
import { type ApiTokenRow, findApiTokenBySecret, markApiTokenSeen } from './store/api-tokens.js'
import { findUserByPersonalToken } from './store/personal-tokens.js'
import {
  findEnabledSignalEndpoint,
  listSignalTokens,
  type SignalEndpointRow,
  type SignalTokenRow,
} from './store/signal-endpoints.js'
import { markUserSeen, type UserRow } from './store/users.js'
import { matchSignalToken } from './token-secrets.js'

/** Who is calling, once the route's access check has admitted them. */
type Principal =
  | { kind: 'api-token'; token: ApiTokenRow }
  | { kind: 'user'; user: UserRow; tokenId: number }
  | { kind: 'signal'; endpoint: SignalEndpointRow; token: SignalTokenRow }

declare module 'h3' {
  interface H3EventContext {
    principal?: Principal
  }
}

/** Checks the caller of a matched route against the route's declared access; throws 401/403/404. */
type Authorizer = (event: H3Event, access: Access) => Promise<void>

/**
 * The one place that decides who may call a route. It runs on the route the router matched
 * (api-router.ts wraps every handler with it), never on a second reading of the URL:
 *
 * - `public`: anyone;
 * - `client`: a client (or backend) API token;
 * - `personal`: a user's personal access token (routes about the caller's own tokens);
 * - `user`: any user's personal access token, or an admin API token (my profile and tokens, insights);
 * - `admin`: an admin API token, or the personal access token of a user whose root role is Admin;
 * - `signal`: one of the tokens of the enabled signal endpoint named by the `:name` parameter.
 *
 * 401: no credential or an unknown, expired one; 403: a valid credential without the permission.
 * The principal is left in `event.context.principal`.
 */
export function createAuthorizer(ctx: ServiceContext): Authorizer {
  const lastSeenWrite = new Map<string, number>()
  // Insights need "seen in the past 60 days", not every request: throttle the writes.
  const shouldWrite = (key: string, now: Date) => {
    const last = lastSeenWrite.get(key)
    if (last !== undefined && now.getTime() - last < ctx.config.userSeenThrottleMs) return false
    lastSeenWrite.set(key, now.getTime())
    return true
  }

  return async (event, access) => {
    if (access === 'public') return
    if (access === 'signal') {
      event.context.principal = await authenticateSignal(ctx, event)
      return
    }
    const principal = await authenticate(ctx, event)
    const now = ctx.clock()
    if (principal.kind === 'user' && shouldWrite(`user:${principal.user.id}`, now)) {
      await markUserSeen(ctx.db, principal.user.id, now)
      principal.user.seen_at = now
    } else if (principal.kind === 'api-token' && shouldWrite(`token:${principal.token.id}`, now)) {
      await markApiTokenSeen(ctx.db, principal.token.id, now)
    }
    authorize(principal, access)
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
  if (principal.kind === 'signal') return { name: `signal-endpoint:${principal.endpoint.name}` }
  return { name: principal.token.token_name }
}

/** The calling user, for routes about "my" resources; 403 for API tokens. */
export function currentUser(event: H3Event): UserRow {
  const principal = event.context.principal
  if (principal?.kind !== 'user')
    throw new ServiceError('NoAccessError', 'This endpoint needs a user: use a personal access token.')
  return principal.user
}

/** The client token of a `client` route (the route's access check admitted only those). */
export function clientToken(event: H3Event): ApiTokenRow {
  const principal = event.context.principal
  if (principal?.kind !== 'api-token') throw noAccess('a client API token')
  return principal.token
}

/** The signal endpoint and token of a `signal` route. */
export function signalCaller(event: H3Event): { endpoint: SignalEndpointRow; token: SignalTokenRow } {
  const principal = event.context.principal
  if (principal?.kind !== 'signal') throw noAccess('a signal endpoint token')
  return principal
}

/** The secret in `Authorization: Bearer <secret>` or `Authorization: <secret>`, if any (Unleash strips "Bearer " case-insensitively). */
function presentedSecret(event: H3Event): string | undefined {
  return (
    getRequestHeader(event, 'authorization')
      ?.trim()
      .replace(/^bearer(\s+|$)/i, '')
      .trim() || undefined
  )
}

// --- Internal helpers ---

async function authenticate(ctx: ServiceContext, event: H3Event): Promise<Exclude<Principal, { kind: 'signal' }>> {
  const secret = presentedSecret(event)
  if (!secret) {
    throw new ServiceError('AuthenticationRequired', 'You must provide an API token in the Authorization header.')
  }
  const now = ctx.clock()
  const token = await findApiTokenBySecret(ctx.db, secret)
  if (token) {
    if (token.expires_at && token.expires_at.getTime() <= now.getTime())
      throw invalidToken('The API token has expired.')
    return { kind: 'api-token', token }
  }
  const personal = await findUserByPersonalToken(ctx.db, secret)
  if (personal) {
    if (personal.expiresAt && personal.expiresAt.getTime() <= now.getTime())
      throw invalidToken('The personal access token has expired.')
    return { kind: 'user', user: personal.user, tokenId: personal.tokenId }
  }
  throw invalidToken('The provided API token is not valid.')
}

/** Spec 4.6: 404 for an unknown or disabled endpoint, then 401 for a missing or wrong token. */
async function authenticateSignal(ctx: ServiceContext, event: H3Event): Promise<Principal> {
  const name = getRouterParam(event, 'name', { decode: true }) ?? ''
  const endpoint = await findEnabledSignalEndpoint(ctx.db, name)
  if (!endpoint) throw notFound(`Signal endpoint "${name}"`)
  const secret = presentedSecret(event)
  if (!secret)
    throw new ServiceError(
      'AuthenticationRequired',
      "Send one of the endpoint's tokens: Authorization: Bearer <token>.",
    )
  const token = matchSignalToken(secret, await listSignalTokens(ctx.db, [endpoint.id]))
  if (!token) throw new ServiceError('InvalidTokenError', `The token is not one of signal endpoint "${name}"'s tokens.`)
  return { kind: 'signal', endpoint, token }
}

function authorize(
  principal: Exclude<Principal, { kind: 'signal' }>,
  access: Exclude<Access, 'public' | 'signal'>,
): void {
  if (access === 'personal') {
    if (principal.kind !== 'user') throw noAccess("a personal access token (these are a user's own tokens)")
    return
  }
  if (access === 'user') {
    if (principal.kind !== 'user' && principal.token.type !== 'admin')
      throw noAccess('a personal access token or an admin token')
    return
  }
  if (access === 'client') {
    const ok =
      principal.kind === 'api-token' && (principal.token.type === 'client' || principal.token.type === 'backend')
    if (!ok) throw noAccess('a client API token')
    return
  }
  const admin = principal.kind === 'api-token' ? principal.token.type === 'admin' : principal.user.root_role === 'Admin'
  if (!admin) throw noAccess("the ADMIN permission (an admin API token or an Admin user's personal access token)")
}

function invalidToken(message: string): ServiceError {
  return new ServiceError('InvalidTokenError', message)
}

function noAccess(what: string): ServiceError {
  return new ServiceError('NoAccessError', `You don't have access to this endpoint: it requires ${what}.`)
}

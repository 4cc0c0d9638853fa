// The proxy's routes: every declared route is its own h3 handler, registered in the route table
// (route-table.ts) for its methods and path (a prefix route also for everything below it, a
// `below` route for one segment, its `name` parameter). On the route matched, and before its
// handler runs or a byte of a body is read, that handler answers 503 (a route that waits for
// flags, before there are any) and then 401 (a caller the route's access declaration does not
// admit). A path or method no route has is h3's 404 or 405, thrown for the request handler to
// answer. What the router decides is on `event.context` (answers/request-state.ts).
import type { IncomingHttpHeaders } from 'node:http'
import { createError, defineEventHandler, type EventHandler, type H3Event } from 'h3'
import { applyCors, type CorsHeaders } from '../http/cors.js'
import { ProxyError } from '../http/errors.js'
import type { FlagSet } from '../scope/flag-set.js'
import type {} from '../answers/request-state.js'
import { type Access, TOKEN_ACCESS_KINDS, type TokenAccess } from './access.js'
import {
  checkDeclaration,
  type RouteDeclaration,
  RouteDeclarationError,
  type RouteDescription,
  type RouteInstrument,
} from './route-declaration.js'
import { createRouteTable, type RoutePolicy } from './route-table.js'
import { withoutBearer } from '../tokens/api-token.js'
import type { TokenCaller, TokenGate } from './token-gate.js'

export interface ProxyRouterOptions {
  /** Lower case. */
  keyHeader: string
  permits: (access: Access, key: string | undefined) => boolean
  /** The scope's current flag set; undefined until its first payload. */
  currentFlags: () => FlagSet | undefined
  corsHeaders: (origin: string | undefined) => CorsHeaders
  /** The CORS headers of the frontend API routes (Unleash 8.2's), for routes that declare `cors: 'frontend'`. */
  frontendCorsHeaders?: (origin: string | undefined) => CorsHeaders
  /** The CORS headers of the OFREP routes, for routes that declare `cors: 'ofrep'`. */
  ofrepCorsHeaders?: (origin: string | undefined) => CorsHeaders
  /** Admits the callers of routes with token access; required when such a route is declared. */
  tokenGate?: TokenGate
  /** Wraps each route's handler once (tests spy with it). */
  instrument?: RouteInstrument
}

interface ProxyRouter {
  /** Answers `event.context.url` (request-handler.ts) with the route declared for its path, or throws h3's 404 or 405. */
  handler: EventHandler
  /** Every route, one entry per method, in declaration order. */
  readonly routes: readonly RouteDescription[]
  /** Whose CORS and error bodies a routed path gets (see `policyAt` below). */
  policyAt(path: string | undefined): RoutePolicy
}

/** Checks every declaration (throwing `RouteDeclarationError` naming the route) and registers it. */
export function createProxyRouter(declarations: readonly RouteDeclaration[], options: ProxyRouterOptions): ProxyRouter {
  const table = createRouteTable()
  const routes: RouteDescription[] = []
  for (const route of declarations) {
    checkDeclaration(route)
    for (const method of route.methods) {
      routes.push({
        method,
        path: route.path,
        prefix: route.prefix ?? false,
        access: route.access,
        waitsForFlags: route.waitsForFlags,
        example: route.example,
      })
    }
    table.add(route, routeHandler(route, options))
  }
  const handler = defineEventHandler((event) => {
    const url = event.context.url!
    const matched = table.match(url.routed ?? '/', url.rawPath, event.method)
    if (matched === 'no-route') throw createError({ statusCode: 404, statusMessage: 'Not Found' })
    if (matched === 'no-method') throw createError({ statusCode: 405, statusMessage: 'Method Not Allowed' })
    // h3's own place for a route's parameters: `getRouterParam(event, 'name')`.
    event.context.params = matched.params
    event.context.route = matched.route
    // As h3's preemptive router: a handler that answered itself returns null to h3.
    return Promise.resolve(matched.handler(event)).then((answer) => (answer === undefined ? null : answer))
  })
  return { handler, routes, policyAt: table.policyAt }
}

// --- Internal helpers ---

function routeHandler(route: RouteDeclaration, options: ProxyRouterOptions): EventHandler {
  const { keyHeader, permits, currentFlags, instrument } = options
  const { access, waitsForFlags, ownCors } = route
  const corsHeaders =
    route.cors === 'none'
      ? noCors
      : route.cors === 'frontend'
        ? options.frontendCorsHeaders
        : route.cors === 'ofrep'
          ? options.ofrepCorsHeaders
          : options.corsHeaders
  if (!corsHeaders) throw new RouteDeclarationError(`Route ${route.path}: no ${route.cors} CORS configured`)
  const handle = instrument ? instrument(withoutHandle(route), route.handle) : route.handle
  const tokenType = access in TOKEN_ACCESS_KINDS ? TOKEN_ACCESS_KINDS[access as TokenAccess] : undefined
  const gate = options.tokenGate
  const keyOrToken = access === 'client-key-or-frontend-token'
  if ((tokenType || keyOrToken) && !gate)
    throw new RouteDeclarationError(`Route ${route.path}: token access needs a token gate`)
  return defineEventHandler((event) => {
    const { req, res } = event.node
    const cors = corsHeaders(req.headers.origin)
    event.context.cors = cors
    // The evaluation routes write their CORS headers with the rest, in one writeHead.
    if (!ownCors) applyCors(res, cors)
    if (keyOrToken) {
      // OFREP: a client key is answered from the /proxy scope, anything else must be a frontend
      // token; the credential first (401, 403), then the flags (503).
      const credential = ofrepCredential(req.headers, keyHeader)
      if (credential !== undefined && permits('client-key', credential)) {
        event.context.flags = currentFlags()
        if (waitsForFlags && !event.context.flags) throw new ProxyError('NOT_READY', 'not ready')
        return handle(event)
      }
      const caller = gate!('frontend', credential, event)
      return caller instanceof Promise ? caller.then((admitted) => handleAs(event, admitted)) : handleAs(event, caller)
    }
    if (tokenType) {
      // The Unleash API: the token first (401, 403), then its scope's flags (503).
      const header = req.headers.authorization
      const caller = gate!(tokenType, header, event)
      return caller instanceof Promise ? caller.then((admitted) => handleAs(event, admitted)) : handleAs(event, caller)
    }
    // Read once: the whole request answers from this set.
    event.context.flags = currentFlags()
    if (waitsForFlags && !event.context.flags) throw new ProxyError('NOT_READY', 'not ready')
    const header = req.headers[keyHeader]
    if (!permits(access, typeof header === 'string' ? header : undefined))
      throw new ProxyError('UNAUTHORIZED', 'unauthorized')
    // h3's router matched one of the methods the route declares.
    return handle(event)
  })

  function handleAs(event: H3Event, caller: TokenCaller): unknown {
    const { context } = event
    context.caller = caller
    context.flags = caller.view.flags.current
    if (waitsForFlags && !context.flags) {
      throw new ProxyError(
        'SCOPE_NOT_READY',
        `No flags yet for environment "${caller.token.environment}": the proxy has not fetched them from the upstream`,
      )
    }
    return handle(event)
  }
}

/**
 * OFREP's credential: `X-API-Key`, else `Authorization` (with or without `Bearer `), else the
 * configured key header. Undefined when none is sent.
 */
function ofrepCredential(headers: IncomingHttpHeaders, keyHeader: string): string | undefined {
  const apiKey = headers['x-api-key']
  if (typeof apiKey === 'string') return apiKey
  const authorization = headers.authorization
  if (authorization !== undefined) return withoutBearer(authorization)
  const key = headers[keyHeader]
  return typeof key === 'string' ? key : undefined
}

const NO_CORS: CorsHeaders = { pairs: [], vary: undefined }
const noCors = () => NO_CORS

function withoutHandle(route: RouteDeclaration): Omit<RouteDeclaration, 'handle'> {
  const { handle: _handle, ...rest } = route
  return rest
}

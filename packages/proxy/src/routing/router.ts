// The proxy's routes on h3's router: every declared route is its own h3 handler, registered for
// its methods and path (a prefix route also for everything below it). On the route h3 matched,
// and before its handler runs or a byte of a body is read, that handler answers 503 (a route
// that waits for flags, before there are any) and then 401 (a caller the route's access
// declaration does not admit). A path or method no route has is h3's 404 or 405, thrown
// (preemptive router) for the request handler to answer.
import type { IncomingHttpHeaders } from 'node:http'
import { createRouter, defineEventHandler, type EventHandler, type RouterMethod } from 'h3'
import { applyCors, type CorsHeaders } from '../http/cors.js'
import { ProxyError } from '../http/errors.js'
import type { FlagSet } from '../scope/flag-set.js'
import { type Access, TOKEN_ACCESS_KINDS, type TokenAccess } from './access.js'
import { checkDeclaration, type RouteCall, type RouteDeclaration, RouteDeclarationError, type RouteDescription, type RouteInstrument, type RouteMethod } from './route-declaration.js'
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

export interface ProxyRouter {
  /** h3's router: matches `event.path` (the routed path, see route-path.ts). */
  handler: EventHandler
  /** Every route, one entry per method, in declaration order. */
  readonly routes: readonly RouteDescription[]
}

/** Checks every declaration (throwing `RouteDeclarationError` naming the route) and registers it. */
export function createProxyRouter(declarations: readonly RouteDeclaration[], options: ProxyRouterOptions): ProxyRouter {
  const router = createRouter({ preemptive: true })
  const registered = new Set<string>()
  const routes: RouteDescription[] = []
  for (const route of declarations) {
    checkDeclaration(route)
    // 'below': exactly one segment (a flag name) under the path; a prefix route: anything under it.
    const paths = route.prefix === 'below' ? [`${route.path}/:name`] : route.prefix ? [route.path, `${route.path}/**`] : [route.path]
    for (const method of route.methods) {
      for (const path of paths) {
        if (registered.has(`${method} ${path}`)) throw new RouteDeclarationError(`Route ${method} ${route.path} is declared twice`)
        registered.add(`${method} ${path}`)
      }
      routes.push({ method, path: route.path, prefix: route.prefix ?? false, access: route.access, waitsForFlags: route.waitsForFlags, example: route.example })
    }
    const handler = routeHandler(route, options)
    const methods = route.methods.map((method) => method.toLowerCase() as RouterMethod)
    for (const path of paths) router.add(path, handler, methods)
  }
  return { handler: router.handler, routes }
}

// --- Internal helpers ---

function routeHandler(route: RouteDeclaration, options: ProxyRouterOptions): EventHandler {
  const { keyHeader, permits, currentFlags, instrument } = options
  const { access, waitsForFlags, ownCors } = route
  const corsHeaders =
    route.cors === 'none' ? noCors : route.cors === 'frontend' ? options.frontendCorsHeaders : route.cors === 'ofrep' ? options.ofrepCorsHeaders : options.corsHeaders
  if (!corsHeaders) throw new RouteDeclarationError(`Route ${route.path}: no ${route.cors} CORS configured`)
  const handle = instrument ? instrument(withoutHandle(route), route.handle) : route.handle
  const tokenType = access in TOKEN_ACCESS_KINDS ? TOKEN_ACCESS_KINDS[access as TokenAccess] : undefined
  const gate = options.tokenGate
  const keyOrToken = access === 'client-key-or-frontend-token'
  if ((tokenType || keyOrToken) && !gate) throw new RouteDeclarationError(`Route ${route.path}: token access needs a token gate`)
  return defineEventHandler((event) => {
    const { req, res } = event.node
    const cors = corsHeaders(req.headers.origin)
    // The evaluation routes write their CORS headers with the rest, in one writeHead.
    if (!ownCors) applyCors(res, cors)
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    const search = queryAt === -1 ? '' : url.slice(queryAt + 1)
    const call: RouteCall = { event, req, res, method: req.method as RouteMethod, search, cors, flags: undefined }
    event.context.cors = cors
    event.context.search = search
    if (keyOrToken) {
      // OFREP: a client key is answered from the /proxy scope, anything else must be a frontend
      // token; the credential first (401, 403), then the flags (503).
      const credential = ofrepCredential(req.headers, keyHeader)
      if (credential !== undefined && permits('client-key', credential)) {
        call.flags = event.context.flags = currentFlags()
        if (waitsForFlags && !call.flags) throw new ProxyError('NOT_READY', 'not ready')
        return handle(call)
      }
      const caller = gate!('frontend', credential, event)
      return caller instanceof Promise ? caller.then((admitted) => handleAs(call, admitted)) : handleAs(call, caller)
    }
    if (tokenType) {
      // The Unleash API: the token first (401, 403), then its scope's flags (503).
      const header = req.headers.authorization
      const caller = gate!(tokenType, header, event)
      return caller instanceof Promise ? caller.then((admitted) => handleAs(call, admitted)) : handleAs(call, caller)
    }
    // Read once: the whole request answers from this set.
    call.flags = event.context.flags = currentFlags()
    if (waitsForFlags && !call.flags) throw new ProxyError('NOT_READY', 'not ready')
    const header = req.headers[keyHeader]
    if (!permits(access, typeof header === 'string' ? header : undefined)) throw new ProxyError('UNAUTHORIZED', 'unauthorized')
    // h3's router matched one of the methods the route declares.
    return handle(call)
  })

  function handleAs(call: RouteCall, caller: TokenCaller): unknown {
    call.caller = call.event.context.caller = caller
    call.flags = call.event.context.flags = caller.view.flags.current
    if (waitsForFlags && !call.flags) {
      throw new ProxyError('SCOPE_NOT_READY', `No flags yet for environment "${caller.token.environment}": the proxy has not fetched them from the upstream`)
    }
    return handle(call)
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

// One request through the proxy: its URL parsed once (onto `event.context.url`), a CORS preflight
// answered on any path as the route there declares it, any other request to the route table, and
// every error answered with the CORS headers and in the error shape the route at its path declares
// (route-table.ts: for a path no route has, those of the routes around it). The order is the same
// on every route: 404 (no route for the path and method), 503 (routes that wait for flags) and
// 401 (both checked by the route's own handler, see router.ts), then whatever the handler checks
// (415, 413, 400 on the body it reads only now).
import { type EventHandler, type H3Event, defineEventHandler, isError } from 'h3'
import type { RequestUrl } from '../answers/request-state.js'
import { hasBody } from '../http/body.js'
import {
  applyCors,
  applyPreflight,
  type CorsHeaders,
  type ResolvedCors,
  sendFrontendPreflight,
  sendOfrepPreflight,
} from '../http/cors.js'
import { ERROR_DIALECTS, ProxyError } from '../http/errors.js'
import { observeRequest, type RequestObserver } from '@vexil/server-kit'
import { sendError } from '../http/respond.js'
import type { Logger } from '../logger.js'
import type { CorsPolicy } from './route-declaration.js'
import { routePath } from './route-path.js'
import { DEFAULT_POLICY, type RoutePolicy } from './route-table.js'

interface RequestHandlerOptions {
  /** The proxy's router (router.ts): routes `event.context.url`. */
  router: EventHandler
  basePath: string
  cors: ResolvedCors
  corsHeaders: (origin: string | undefined) => CorsHeaders
  /** The frontend API's CORS headers (Unleash 8.2's), for routes that declare them. */
  frontendCorsHeaders?: (origin: string | undefined) => CorsHeaders
  /** OFREP's CORS headers, for routes that declare them. */
  ofrepCorsHeaders?: (origin: string | undefined) => CorsHeaders
  /** The CORS and error shape of a routed path (router.ts's `policyAt`); default: the old proxy's everywhere. */
  policyAt?: (path: string | undefined) => RoutePolicy
  logger: Logger
  /** Told of every request once its response closes (@vexil/server-kit's request-observer.ts); none by default. */
  observers?: readonly RequestObserver[]
}

const notFound = (method: string, rawPath: string) => new ProxyError('NOT_FOUND', `Cannot ${method} ${rawPath}`)

/** The URL as sent: the path routing uses, and the query string. */
function parseRequestUrl(url: string, basePath: string): RequestUrl {
  const queryAt = url.indexOf('?')
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt)
  return { rawPath, routed: routePath(rawPath, basePath), search: queryAt === -1 ? '' : url.slice(queryAt + 1) }
}

export function createRequestHandler(options: RequestHandlerOptions): EventHandler {
  const { router, basePath, cors: corsConfig, corsHeaders, logger } = options
  const policyAt = options.policyAt ?? (() => DEFAULT_POLICY)
  const noCors = () => undefined
  const observers = options.observers?.length ? options.observers : undefined
  const observerFailed = (error: unknown) => logger.error('A request observer failed', error)

  /** The CORS headers of a policy for an origin; undefined for `none`. */
  const headersOf: Record<CorsPolicy, (origin: string | undefined) => CorsHeaders | undefined> = {
    proxy: corsHeaders,
    frontend: options.frontendCorsHeaders ?? corsHeaders,
    ofrep: options.ofrepCorsHeaders ?? corsHeaders,
    none: noCors,
  }

  /** Answers a preflight as the policy says; false when the request goes on to routing (`preflightContinue`). */
  function preflight(event: H3Event, policy: RoutePolicy): boolean {
    const { req, res } = event.node
    if (policy.cors === 'frontend' && options.frontendCorsHeaders) {
      sendFrontendPreflight(
        res,
        options.frontendCorsHeaders(req.headers.origin),
        req.headers['access-control-request-headers'],
      )
      return true
    }
    if (policy.cors === 'ofrep' && options.ofrepCorsHeaders) {
      sendOfrepPreflight(res, options.ofrepCorsHeaders(req.headers.origin))
      return true
    }
    // The old proxy answered every other preflight, on any path, before routing.
    applyPreflight(corsConfig, req.headers.origin, req.headers['access-control-request-headers'], res)
    if (corsConfig.preflightContinue) return false
    res.statusCode = corsConfig.optionsSuccessStatus
    res.setHeader('content-length', '0')
    res.end()
    return true
  }

  return defineEventHandler(async (event) => {
    const { req, res } = event.node
    if (observers) observeRequest(event, observers, observerFailed)
    const url = parseRequestUrl(req.url ?? '/', basePath)
    event.context.url = url
    const method = req.method ?? 'GET'
    if (method === 'OPTIONS' && preflight(event, policyAt(url.routed))) return
    try {
      if (url.routed === undefined) throw notFound(method, url.rawPath)
      return await router(event)
    } catch (error) {
      if (res.headersSent) {
        logger.error('Error after the response started', error)
        res.destroy()
        return
      }
      const policy = policyAt(url.routed)
      const cors = headersOf[policy.cors](req.headers.origin)
      if (cors) applyCors(res, cors)
      // Unleash's compression middleware varies every answer by Accept-Encoding, errors too.
      if (policy.cors === 'frontend' && options.frontendCorsHeaders) res.setHeader('Vary', 'Origin, Accept-Encoding')
      // Refused before its body was read (404, 503, 401, 415): close rather than drain the body.
      if (!event.web && hasBody(event) && !req.readableDidRead) res.setHeader('connection', 'close')
      const head = method === 'HEAD'
      const dialect = ERROR_DIALECTS[policy.errors]
      if (error instanceof ProxyError) {
        if (error.code === 'INTERNAL') logger.error(`Request failed: ${error.message}`)
        sendError(res, error, head, dialect.render)
      } else if (isError(error) && error.statusCode === 405 && dialect.methodNotAllowed) {
        res.setHeader('Allow', [...(policy.methods ?? []), 'OPTIONS'].join(', '))
        sendError(res, dialect.methodNotAllowed(method), head, dialect.render)
      } else if (isError(error) && (error.statusCode === 404 || error.statusCode === 405)) {
        // No route for the path (404) or for the method (405): Express answered both 404. Also
        // the docs handler's unknown paths.
        sendError(res, notFound(method, url.rawPath), head)
      } else {
        logger.error('Unexpected error while handling a request', error)
        sendError(res, new ProxyError('INTERNAL', error instanceof Error ? error.message : String(error)), head)
      }
    }
  })
}

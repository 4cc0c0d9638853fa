// One request through the proxy: a CORS preflight is answered on any path; any other request goes
// to h3's router on the routed path; every error becomes its answer. The order is the same on
// every route: 404 (no route for the path and method), 503 (routes that wait for flags) and 401
// (both checked by the route's own handler, see router.ts), then whatever the handler checks
// (415, 413, 400 on the body it reads only now).
import { type EventHandler, type H3Event, defineEventHandler, isError } from 'h3'
import type { ResolvedCors } from '../config/types.js'
import { hasBody } from '../http/body.js'
import { applyCors, applyPreflight, type CorsHeaders, sendFrontendPreflight, sendOfrepPreflight } from '../http/cors.js'
import { ProxyError, renderOfrepError } from '../http/errors.js'
import { sendError } from '../http/respond.js'
import type { Logger } from '../logger.js'
import { routePath } from './route-path.js'

export interface RequestHandlerOptions {
  /** h3's router of the proxy's routes (router.ts). */
  router: EventHandler
  basePath: string
  cors: ResolvedCors
  corsHeaders: (origin: string | undefined) => CorsHeaders
  /** The frontend API's CORS headers (its paths answer preflights as Unleash 8.2 does). */
  frontendCorsHeaders?: (origin: string | undefined) => CorsHeaders
  /** OFREP's CORS headers (its paths answer preflights and errors with them). */
  ofrepCorsHeaders?: (origin: string | undefined) => CorsHeaders
  logger: Logger
}

/** Paths (as routed) of the frontend API, whose preflights and errors carry its CORS headers. */
const isFrontendPath = (path: string | undefined) => path !== undefined && /^\/api\/(frontend|proxy)(\/|$)/.test(path)
/** Paths of OFREP, whose preflights, errors and refusals are the protocol's. */
const isOfrepPath = (path: string | undefined) => path !== undefined && /^\/ofrep(\/|$)/.test(path)
/** Paths of Unleash's client API and Edge's routes: no CORS headers at all, as Unleash and Edge. */
const isWithoutCors = (path: string | undefined) => path !== undefined && /^\/(api\/client|edge|internal-backstage)(\/|$)/.test(path)

const notFound = (method: string, rawPath: string) => new ProxyError('NOT_FOUND', `Cannot ${method} ${rawPath}`)

export function createRequestHandler(options: RequestHandlerOptions): EventHandler {
  const { router, basePath, cors: corsConfig, corsHeaders, logger } = options

  function route(event: H3Event, path: string | undefined, rawPath: string): unknown {
    if (path === undefined) throw notFound(event.node.req.method ?? 'GET', rawPath)
    // h3's app hands its layers a decoded path; the router must match the path as sent (folded
    // to lower case, nothing decoded: see route-path.ts), so it gets that one.
    event._path = path
    return router(event)
  }

  return defineEventHandler(async (event) => {
    const { req, res } = event.node
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt)
    const routed = routePath(rawPath, basePath)
    if (req.method === 'OPTIONS' && options.frontendCorsHeaders && isFrontendPath(routed)) {
      sendFrontendPreflight(res, options.frontendCorsHeaders(req.headers.origin), req.headers['access-control-request-headers'])
      return
    }
    if (req.method === 'OPTIONS' && options.ofrepCorsHeaders && isOfrepPath(routed)) {
      sendOfrepPreflight(res, options.ofrepCorsHeaders(req.headers.origin))
      return
    }
    if (req.method === 'OPTIONS') {
      // The old proxy answered every preflight, on any path, before routing.
      applyPreflight(corsConfig, req.headers.origin, req.headers['access-control-request-headers'], res)
      if (!corsConfig.preflightContinue) {
        res.statusCode = corsConfig.optionsSuccessStatus
        res.setHeader('content-length', '0')
        res.end()
        return
      }
    }
    try {
      return await route(event, routed, rawPath)
    } catch (error) {
      if (res.headersSent) {
        logger.error('Error after the response started', error)
        res.destroy()
        return
      }
      const ofrep = options.ofrepCorsHeaders !== undefined && isOfrepPath(routed)
      if (ofrep) applyCors(res, options.ofrepCorsHeaders!(req.headers.origin))
      else if (options.frontendCorsHeaders && isFrontendPath(routed)) {
        applyCors(res, options.frontendCorsHeaders(req.headers.origin))
        // Unleash's compression middleware varies every answer by Accept-Encoding, errors too.
        res.setHeader('Vary', 'Origin, Accept-Encoding')
      }
      else if (!isWithoutCors(routed)) applyCors(res, corsHeaders(req.headers.origin))
      // Refused before its body was read (404, 503, 401, 415): close rather than drain the body.
      if (!event.web && hasBody(event) && !req.readableDidRead) res.setHeader('connection', 'close')
      const method = req.method ?? 'GET'
      const head = method === 'HEAD'
      if (error instanceof ProxyError) {
        if (error.code === 'INTERNAL') logger.error(`Request failed: ${error.message}`)
        sendError(res, error, head, ofrep ? renderOfrepError : undefined)
      } else if (ofrep && isError(error) && error.statusCode === 405) {
        // OFREP's routes take POST only.
        res.setHeader('Allow', 'POST, OPTIONS')
        sendError(res, new ProxyError('METHOD_NOT_ALLOWED', `${method} is not allowed here: OFREP evaluates with POST`), head, renderOfrepError)
      } else if (isError(error) && (error.statusCode === 404 || error.statusCode === 405)) {
        // No route for the path (404) or for the method (405): Express answered both 404. Also
        // the docs handler's unknown paths.
        sendError(res, notFound(method, rawPath), head)
      } else {
        logger.error('Unexpected error while handling a request', error)
        sendError(res, new ProxyError('INTERNAL', error instanceof Error ? error.message : String(error)), head)
      }
    }
  })
}

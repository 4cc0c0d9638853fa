// One request through the proxy: CORS preflight, the route table, the readiness gate, the
// credential check of the route matched, then its handler; every error turned into its answer.
// The order is fixed here for every route: 404, 503 (routes that wait for flags), 401, then
// whatever the handler checks (415, 413, 400 on the body it reads only now).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type H3Event, isError } from 'h3'
import type { ResolvedCors } from '../config/types.js'
import { hasBody } from '../http/body.js'
import { applyCors, applyPreflight, type CorsHeaders } from '../http/cors.js'
import { ProxyError } from '../http/errors.js'
import { sendError } from '../http/respond.js'
import type { Logger } from '../logger.js'
import type { FlagSet } from '../scope/flag-set.js'
import type { Access } from './access.js'
import { routePath } from './route-path.js'
import type { RouteCall, RouteMethod, RouteTable } from './route-table.js'

export interface DispatcherOptions {
  table: RouteTable
  basePath: string
  /** Lower case. */
  keyHeader: string
  permits: (access: Access, key: string | undefined) => boolean
  /** The scope's current flag set; undefined until its first payload. */
  currentFlags: () => FlagSet | undefined
  cors: ResolvedCors
  corsHeaders: (origin: string | undefined) => CorsHeaders
  logger: Logger
}

const notFound = (method: string, rawPath: string) => new ProxyError('NOT_FOUND', `Cannot ${method} ${rawPath}`)

/** Returns h3's handler body: a value for h3 to send (the docs), or nothing when answered. */
export function createDispatcher(options: DispatcherOptions): (event: H3Event) => Promise<unknown> {
  const { table, basePath, keyHeader, permits, currentFlags, cors: corsConfig, corsHeaders, logger } = options

  async function route(event: H3Event, req: IncomingMessage, res: ServerResponse, cors: CorsHeaders): Promise<unknown> {
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt)
    const path = routePath(rawPath, basePath)
    const matched = path === undefined ? undefined : table.match(method, path)
    // The evaluation routes write their CORS headers with the rest, in one writeHead.
    if (!matched?.ownCors) applyCors(res, cors)
    if (!matched) throw notFound(method, rawPath)
    const flags = currentFlags()
    if (matched.waitsForFlags && !flags) throw new ProxyError('NOT_READY', 'not ready')
    const header = req.headers[keyHeader]
    // Decided on the route just matched, from the same routed path, before its handler runs.
    if (!permits(matched.access, typeof header === 'string' ? header : undefined)) throw new ProxyError('UNAUTHORIZED', 'unauthorized')
    // The table matched the method, so it is one the route declares.
    const call: RouteCall = { event, req, res, method: method as RouteMethod, search: queryAt === -1 ? '' : url.slice(queryAt + 1), cors, flags }
    // Returned, not awaited (the caller awaits it): one suspension less per request.
    return matched.handle(call)
  }

  return async (event) => {
    const { req, res } = event.node
    const origin = req.headers.origin
    const cors = corsHeaders(origin)
    if (req.method === 'OPTIONS') {
      // The old proxy answered every preflight, on any path, before routing.
      applyPreflight(corsConfig, origin, req.headers['access-control-request-headers'], res)
      if (!corsConfig.preflightContinue) {
        res.statusCode = corsConfig.optionsSuccessStatus
        res.setHeader('content-length', '0')
        res.end()
        return
      }
    }
    try {
      return await route(event, req, res, cors)
    } catch (error) {
      if (res.headersSent) {
        logger.error('Error after the response started', error)
        res.destroy()
        return
      }
      applyCors(res, cors)
      // Refused before its body was read (404, 503, 401, 415): close rather than drain the body.
      if (hasBody(req) && !req.readableDidRead) res.setHeader('connection', 'close')
      const head = req.method === 'HEAD'
      if (error instanceof ProxyError) {
        if (error.code === 'INTERNAL') logger.error(`Request failed: ${error.message}`)
        sendError(res, error, head)
      } else if (isError(error) && error.statusCode === 404) {
        // The docs handler's unknown paths.
        sendError(res, notFound(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!), head)
      } else {
        logger.error('Unexpected error while handling a request', error)
        sendError(res, new ProxyError('INTERNAL', error instanceof Error ? error.message : String(error)), head)
      }
    }
  }
}

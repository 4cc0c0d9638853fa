// One log line per request (LOG_REQUESTS; on at LOG_LEVEL=debug, as Edge's request tracing is at
// RUST_LOG=debug): method, route template, path, status, duration and which kind of credential
// the caller used. Never a secret: the path is logged without its query string (tokens and
// contexts travel there), no header is read but to tell the credential's kind, and no token text.
// JSON under LOG_FORMAT=json / JSON_LOGGER (`message` "request", the fields in `args`), else the
// logger's text line.
import type { H3Event } from 'h3'
import type { RequestObserver, RequestRecord } from '@vexil/server-kit'
import type { Logger } from './logger.js'

export type TokenKind = 'client' | 'frontend' | 'client-key' | 'none'

export interface RequestLine {
  method: string
  route: string | null
  path: string
  status: number
  durationMs: number
  tokenKind: TokenKind
  aborted?: true
}

/** `keyRoutes`: the routes a client key admits (the router answers 401 before their handler to anyone else). */
export function createRequestLog(logger: Logger, keyRoutes: ReadonlySet<string>): RequestObserver {
  return (record, event) => {
    const line = requestLine(record, event, keyRoutes)
    logger.info(
      `request ${line.method} ${line.path} ${line.status} ${line.durationMs} ms route=${line.route ?? '-'} token=${line.tokenKind}${line.aborted ? ' aborted' : ''}`,
      line,
    )
  }
}

export function requestLine(record: RequestRecord, event: H3Event, keyRoutes: ReadonlySet<string>): RequestLine {
  const url = event.node.req.url ?? '/'
  const query = url.indexOf('?')
  return {
    method: record.method,
    route: record.route ?? null,
    path: query === -1 ? url : url.slice(0, query),
    status: record.status,
    durationMs: Math.round(record.durationMs * 100) / 100,
    tokenKind: tokenKind(record, event, keyRoutes),
    ...(record.aborted ? { aborted: true as const } : {}),
  }
}

// --- Internal helpers ---

function tokenKind(record: RequestRecord, event: H3Event, keyRoutes: ReadonlySet<string>): TokenKind {
  const caller = event.context.caller
  if (caller) return caller.token.type === 'frontend' ? 'frontend' : 'client'
  return record.route !== undefined && keyRoutes.has(record.route) && record.status !== 401 && record.status !== 503
    ? 'client-key'
    : 'none'
}

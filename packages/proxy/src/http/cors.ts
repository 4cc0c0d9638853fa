// CORS as the `cors` package does it for the old proxy (docs/old-proxy-compatibility.md section 3.6):
// headers on every response, and a preflight answer for OPTIONS on any path. The headers of a
// normal response are computed once per request as name/value pairs, so the hot path can write
// them with the rest in one `writeHead`.
import type { ServerResponse } from 'node:http'
import type { ResolvedCors } from '../config/types.js'

/** The CORS headers of one response: flat name/value pairs, and the `Vary` field they need. */
export interface CorsHeaders {
  pairs: readonly string[]
  vary: string | undefined
}

/** The origin to allow for this request, or undefined when a configured list does not match. */
function allowedOrigin(cors: ResolvedCors, origin: string | undefined): string | undefined {
  if (cors.origin === '*') return '*'
  return origin !== undefined && cors.origin.includes(origin) ? origin : undefined
}

function originPairs(cors: ResolvedCors, origin: string | undefined): string[] {
  const pairs: string[] = []
  const allowed = allowedOrigin(cors, origin)
  if (allowed !== undefined) pairs.push('access-control-allow-origin', allowed)
  if (cors.credentials) pairs.push('access-control-allow-credentials', 'true')
  return pairs
}

/** Returns `(origin) => headers`; with a `*` origin the answer never changes and is built once. */
export function compileCorsHeaders(cors: ResolvedCors): (origin: string | undefined) => CorsHeaders {
  const exposed = cors.exposedHeaders ? ['access-control-expose-headers', cors.exposedHeaders] : []
  if (cors.origin === '*') {
    const fixed: CorsHeaders = { pairs: [...originPairs(cors, undefined), ...exposed], vary: undefined }
    return () => fixed
  }
  return (origin) => ({ pairs: [...originPairs(cors, origin), ...exposed], vary: 'Origin' })
}

/** Sets CORS headers on a response written with setHeader (every route but the hot one). */
export function applyCors(res: ServerResponse, headers: CorsHeaders): void {
  for (let i = 0; i < headers.pairs.length; i += 2) res.setHeader(headers.pairs[i]!, headers.pairs[i + 1]!)
  if (headers.vary) res.setHeader('vary', headers.vary)
}

/** Headers for a preflight; the caller ends the response with `optionsSuccessStatus` unless `preflightContinue`. */
export function applyPreflight(cors: ResolvedCors, origin: string | undefined, requestHeaders: string | undefined, res: ServerResponse): void {
  const pairs = originPairs(cors, origin)
  for (let i = 0; i < pairs.length; i += 2) res.setHeader(pairs[i]!, pairs[i + 1]!)
  const vary: string[] = cors.origin === '*' ? [] : ['Origin']
  res.setHeader('access-control-allow-methods', cors.methods)
  if (cors.allowedHeaders !== undefined) {
    res.setHeader('access-control-allow-headers', cors.allowedHeaders)
  } else {
    if (requestHeaders) res.setHeader('access-control-allow-headers', requestHeaders)
    vary.push('Access-Control-Request-Headers')
  }
  res.setHeader('access-control-max-age', String(cors.maxAge))
  if (cors.exposedHeaders) res.setHeader('access-control-expose-headers', cors.exposedHeaders)
  if (vary.length > 0) res.setHeader('vary', vary.join(', '))
}

// CORS as the `cors` package does it for the old proxy (docs/old-proxy-compatibility.md section 3.6):
// headers on every response, and a preflight answer for OPTIONS on any path. The headers of a
// normal response are computed once per request as name/value pairs, so the hot path can write
// them with the rest in one `writeHead`.
import type { ServerResponse } from 'node:http'
import { headerObject } from './respond.js'

export interface ResolvedCors {
  origin: '*' | string[]
  methods: string
  allowedHeaders: string | undefined
  exposedHeaders: string
  credentials: boolean
  maxAge: number
  preflightContinue: boolean
  optionsSuccessStatus: number
}

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
export function applyPreflight(
  cors: ResolvedCors,
  origin: string | undefined,
  requestHeaders: string | undefined,
  res: ServerResponse,
): void {
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

// --- The frontend API's CORS (Unleash 8.2's, docs/edge-compatibility.md) ---
// Every response varies by Origin; `*` or a matching origin is allowed, with credentials, and
// ETag is exposed. A preflight answers 204 with the request's headers mirrored, for a day.

const FRONTEND_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE'
const FRONTEND_MAX_AGE = '86400'

export function compileFrontendCors(origins: '*' | string[]): (origin: string | undefined) => CorsHeaders {
  const allowed = (origin: string | undefined) =>
    origins === '*' ? '*' : origin !== undefined && origins.includes(origin) ? origin : undefined
  const fixed: CorsHeaders = {
    pairs: [
      'Access-Control-Allow-Origin',
      '*',
      'Access-Control-Allow-Credentials',
      'true',
      'Access-Control-Expose-Headers',
      'ETag',
    ],
    vary: 'Origin',
  }
  if (origins === '*') return () => fixed
  return (origin) => {
    const allow = allowed(origin)
    return allow === undefined
      ? { pairs: [], vary: 'Origin' }
      : {
          pairs: [
            'Access-Control-Allow-Origin',
            allow,
            'Access-Control-Allow-Credentials',
            'true',
            'Access-Control-Expose-Headers',
            'ETag',
          ],
          vary: 'Origin',
        }
  }
}

/** Answers a preflight on a frontend API path, as Unleash 8.2 does (204, no body). */
export function sendFrontendPreflight(
  res: ServerResponse,
  cors: CorsHeaders,
  requestHeaders: string | undefined,
): void {
  const headers: string[] = ['Vary', 'Origin, Access-Control-Request-Headers']
  const origin = cors.pairs.indexOf('Access-Control-Allow-Origin')
  if (origin !== -1) {
    headers.push(
      'Access-Control-Allow-Origin',
      cors.pairs[origin + 1]!,
      'Access-Control-Allow-Credentials',
      'true',
      'Access-Control-Allow-Methods',
      FRONTEND_METHODS,
    )
    if (requestHeaders) headers.push('Access-Control-Allow-Headers', requestHeaders)
    headers.push('Access-Control-Max-Age', FRONTEND_MAX_AGE, 'Access-Control-Expose-Headers', 'ETag')
  }
  headers.push('Content-Length', '0')
  res.writeHead(204, headerObject(headers))
  res.end()
}

// --- OFREP's CORS (README, "OpenFeature (OFREP)") ---
// The web provider sends Authorization or X-API-Key, a JSON content type and If-None-Match, and
// reads the ETag (without it exposed, a browser hides it and the provider never revalidates).
// Origins as configured by CORS_ORIGIN (`*` by default); no credentials (keys travel in headers).

const OFREP_ALLOWED_HEADERS = 'Authorization, X-API-Key, Content-Type, If-None-Match'
const OFREP_EXPOSED_HEADERS = 'ETag, Retry-After'

export function compileOfrepCors(origins: '*' | string[]): (origin: string | undefined) => CorsHeaders {
  const pairs = (allow: string) => [
    'Access-Control-Allow-Origin',
    allow,
    'Access-Control-Expose-Headers',
    OFREP_EXPOSED_HEADERS,
  ]
  if (origins === '*') {
    const fixed: CorsHeaders = { pairs: pairs('*'), vary: undefined }
    return () => fixed
  }
  return (origin) =>
    origin !== undefined && origins.includes(origin)
      ? { pairs: pairs(origin), vary: 'Origin' }
      : { pairs: [], vary: 'Origin' }
}

/** Answers a preflight on an OFREP path: 204, POST allowed with the provider's headers, for a day. */
export function sendOfrepPreflight(res: ServerResponse, cors: CorsHeaders): void {
  const headers: string[] = [...cors.pairs, ...(cors.vary ? ['Vary', cors.vary] : [])]
  if (cors.pairs.length > 0)
    headers.push(
      'Access-Control-Allow-Methods',
      'POST, OPTIONS',
      'Access-Control-Allow-Headers',
      OFREP_ALLOWED_HEADERS,
      'Access-Control-Max-Age',
      '86400',
    )
  headers.push('Content-Length', '0')
  res.writeHead(204, headerObject(headers))
  res.end()
}

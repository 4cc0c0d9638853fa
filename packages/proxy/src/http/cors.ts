// CORS as the `cors` package does it for the old proxy (unleash-proxy-behavior.md section 3.6):
// headers on every response, and a preflight answer for OPTIONS on any path.
import type { ServerResponse } from 'node:http'
import type { ResolvedCors } from '../config/types.js'

/** The origin to allow for this request, or undefined when a configured list does not match. */
function allowedOrigin(cors: ResolvedCors, origin: string | undefined): string | undefined {
  if (cors.origin === '*') return '*'
  return origin !== undefined && cors.origin.includes(origin) ? origin : undefined
}

function appendVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('vary')
  const fields = typeof current === 'string' ? current.split(',').map((f) => f.trim()).filter(Boolean) : []
  if (!fields.some((f) => f.toLowerCase() === field.toLowerCase())) fields.push(field)
  res.setHeader('vary', fields.join(', '))
}

function setOriginHeaders(cors: ResolvedCors, origin: string | undefined, res: ServerResponse): void {
  const allowed = allowedOrigin(cors, origin)
  if (allowed !== undefined) res.setHeader('access-control-allow-origin', allowed)
  if (cors.origin !== '*') appendVary(res, 'Origin')
  if (cors.credentials) res.setHeader('access-control-allow-credentials', 'true')
}

/** Headers for a normal (non-preflight) response. */
export function applyCors(cors: ResolvedCors, origin: string | undefined, res: ServerResponse): void {
  setOriginHeaders(cors, origin, res)
  if (cors.exposedHeaders) res.setHeader('access-control-expose-headers', cors.exposedHeaders)
}

/** Headers for a preflight; the caller ends the response with `optionsSuccessStatus` unless `preflightContinue`. */
export function applyPreflight(cors: ResolvedCors, origin: string | undefined, requestHeaders: string | undefined, res: ServerResponse): void {
  setOriginHeaders(cors, origin, res)
  res.setHeader('access-control-allow-methods', cors.methods)
  if (cors.allowedHeaders !== undefined) {
    res.setHeader('access-control-allow-headers', cors.allowedHeaders)
  } else {
    if (requestHeaders) res.setHeader('access-control-allow-headers', requestHeaders)
    appendVary(res, 'Access-Control-Request-Headers')
  }
  res.setHeader('access-control-max-age', String(cors.maxAge))
  if (cors.exposedHeaders) res.setHeader('access-control-expose-headers', cors.exposedHeaders)
}

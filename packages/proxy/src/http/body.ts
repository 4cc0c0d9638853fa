// Request bodies as the old proxy's `express.json()` read them (docs/old-proxy-compatibility.md 1.2,
// 3.5): 415 for a body that is not JSON (a body without a content type counts as JSON), strict
// JSON (an object or an array at the top), gzip/deflate bodies, a 100 kB limit. Vexil answers
// 413 JSON for an oversize body and 415 for an unsupported encoding or charset (the old proxy
// answered 500 for all three). read-body.ts reads them.
import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import { ProxyError } from './errors.js'

export const BODY_LIMIT_BYTES = 100 * 1024

/** A JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** RFC 3339 date-time, as the schemas' `format: date-time` (the old proxy's ajv and Unleash's) read it. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/
export const isDateTime = (value: unknown): value is string =>
  typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))

/**
 * Whether the request has a body: by its headers for Node's request; for a web `Request` (h3's
 * web adapter, as the Worker runs it) by its body stream, since a runtime may drop the framing
 * headers of what it received.
 */
export function hasBody(event: H3Event): boolean {
  const web = event.web?.request
  if (web) return web.body !== null
  const req = event.node.req
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/** Throws 415 unless the request's content type is JSON (or absent). */
export function assertJsonContentType(req: IncomingMessage): void {
  const type = req.headers['content-type']
  if (type === undefined || type === 'application/json') return
  const mime = type.split(';')[0]!.trim().toLowerCase()
  if (mime !== 'application/json')
    throw new ProxyError('UNSUPPORTED_MEDIA_TYPE', `unsupported content type "${mime}"`, { contentType: type })
  const charset = /;\s*charset\s*=\s*"?([^";]+)"?/i.exec(type)?.[1]?.toLowerCase()
  if (charset && charset !== 'utf-8' && charset !== 'utf8')
    throw new ProxyError('UNSUPPORTED_MEDIA_TYPE', `unsupported charset "${charset}"`)
}

/** Strict JSON: an object or an array at the top level; an empty body is `{}`. */
export function parseStrictJson(text: string): unknown {
  const trimmed = text.trim()
  if (trimmed === '') return {}
  const first = trimmed[0]
  if (first !== '{' && first !== '[') {
    throw new ProxyError('INVALID_JSON', `Unexpected token '${first}', "${trimmed.slice(0, 30)}" is not valid JSON`)
  }
  try {
    return JSON.parse(trimmed)
  } catch (error) {
    throw new ProxyError('INVALID_JSON', error instanceof Error ? error.message : String(error))
  }
}

// Writing responses straight to the Node response: the hot path sets a handful of headers and
// ends; h3 sees the response handled and stays out of the way.
import type { ServerResponse } from 'node:http'
import { type Encoding, chooseEncoding, COMPRESSION_THRESHOLD, compress } from './compression.js'
import { type ErrorResponse, renderError, type ProxyError } from './errors.js'
import { weakEtag } from './etag.js'

export const CACHE_CONTROL = 'public, max-age=2'

/**
 * A flat name/value list as the object `writeHead` takes. Node writes both forms alike, in order,
 * but an adapter over a mock response (h3's web adapter, which the Worker runs) keeps only an
 * object's headers: every `writeHead` with headers goes through this.
 */
export function headerObject(list: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (let i = 0; i < list.length; i += 2) headers[list[i]!] = list[i + 1]!
  return headers
}
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

export interface Body {
  text: string
  /** Compressed forms already made, keyed by encoding (filled in place). */
  compressed?: Partial<Record<Encoding, Buffer>>
}

/** Sends a compressible body: br/gzip/deflate when the client accepts it and it is 1 kB or more. */
export function sendBody(
  res: ServerResponse,
  status: number,
  body: Body,
  acceptEncoding: string | undefined,
  head: boolean,
): void {
  res.statusCode = status
  res.setHeader('vary', appendVary(res.getHeader('vary'), 'Accept-Encoding'))
  const encoding = body.text.length >= COMPRESSION_THRESHOLD ? chooseEncoding(acceptEncoding) : undefined
  if (encoding) {
    const compressed = (body.compressed ??= {})
    const bytes = (compressed[encoding] ??= compress(body.text, encoding))
    res.setHeader('content-encoding', encoding)
    res.setHeader('content-length', bytes.length)
    res.end(head ? undefined : bytes)
    return
  }
  res.setHeader('content-length', Buffer.byteLength(body.text))
  res.end(head ? undefined : body.text)
}

function appendVary(current: number | string | string[] | undefined, field: string): string {
  const existing = typeof current === 'string' && current !== '' ? current : undefined
  if (!existing) return field
  return existing.toLowerCase().includes(field.toLowerCase()) ? existing : `${existing}, ${field}`
}

/** 304 with the validators and caching headers of the 200 it replaces, and no body. */
export function sendNotModified(res: ServerResponse): void {
  res.statusCode = 304
  res.removeHeader('content-type')
  res.end()
}

export function sendError(
  res: ServerResponse,
  error: ProxyError,
  head = false,
  render: (error: ProxyError) => ErrorResponse = renderError,
): void {
  const { status, contentType, body } = render(error)
  res.statusCode = status
  res.removeHeader('cache-control')
  if (contentType) res.setHeader('content-type', contentType)
  if (error.code === 'NOT_FOUND') {
    res.setHeader('content-security-policy', "default-src 'none'")
    res.setHeader('x-content-type-options', 'nosniff')
  } else if (body !== '') {
    res.setHeader('etag', weakEtag(body))
  }
  // An oversize body is not read to its end: close the connection rather than parse the rest.
  if (error.code === 'BODY_TOO_LARGE') res.setHeader('connection', 'close')
  res.setHeader('content-length', Buffer.byteLength(body))
  res.end(head ? undefined : body)
}

/** A small text body (health, metrics OK) with an ETag, as Express's `res.send` wrote them. */
export function sendText(res: ServerResponse, status: number, contentType: string, text: string, head = false): void {
  res.statusCode = status
  res.setHeader('content-type', contentType)
  res.setHeader('etag', weakEtag(text))
  res.setHeader('content-length', Buffer.byteLength(text))
  res.end(head ? undefined : text)
}

// Writes an evaluation answer (a body from the response cache or just made): 304 when a GET or
// HEAD names its ETag (Express revalidates GET and HEAD only), else 200 with every header in one
// `writeHead`, compressed when the client accepts it and the body is 1 kB or more. The route says
// which headers, in which order: the old proxy's for /proxy, Unleash 8.2's for /api/frontend,
// OFREP's for its routes.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { chooseEncoding, COMPRESSION_THRESHOLD, compress, type Encoding } from '../http/compression.js'
import type { CorsHeaders } from '../http/cors.js'
import { matchesIfNoneMatch } from '../http/etag.js'
import { headerObject } from '../http/respond.js'
import type { CachedResponse } from '../cache/response-cache.js'

export type AnswerMethod = 'GET' | 'HEAD' | 'POST'

export interface AnswerHeaders {
  /** A POST that names the ETag is answered 304 too (OFREP's bulk evaluation); else only GET and HEAD. */
  revalidatesPost?: boolean
  /** False: always sent as is (OFREP's single flag, a small answer never kept). */
  compresses?: boolean
  /** A 200's headers as a flat name/value list. */
  ok(cors: CorsHeaders, etag: string, length: number, encoding: string | undefined): string[]
  /** A 304's headers. */
  notModified(cors: CorsHeaders, etag: string): string[]
}

/**
 * An uncompressed answer keeps its header list for the CORS headers it was last sent with (one
 * shared object when every origin is allowed), so a repeated answer builds nothing. Returns the
 * body's bytes as sent (0 for a 304 or a HEAD), which its one `writeHead` hides from `getHeader`.
 */
export function sendAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  method: AnswerMethod,
  cors: CorsHeaders,
  answer: CachedResponse,
  headers: AnswerHeaders,
  status = 200,
): number {
  if (
    (method !== 'POST' || headers.revalidatesPost === true) &&
    matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)
  ) {
    res.writeHead(304, headerObject(headers.notModified(cors, answer.etag)))
    res.end()
    return 0
  }
  const encoding =
    answer.bytes >= COMPRESSION_THRESHOLD && headers.compresses !== false
      ? chooseEncoding(req.headers['accept-encoding'])
      : undefined
  let body = answer.body
  let bytes = answer.bytes
  let head: Record<string, string>
  if (encoding) {
    const compressed = compressedBody(answer, encoding)
    body = compressed
    bytes = compressed.length
    head = headerObject(headers.ok(cors, answer.etag, compressed.length, encoding))
  } else if (answer.head?.cors === cors) {
    head = answer.head.headers
  } else {
    head = headerObject(headers.ok(cors, answer.etag, answer.bytes, undefined))
    answer.head = { cors, headers: head }
  }
  res.writeHead(status, head)
  if (method === 'HEAD') {
    res.end()
    return 0
  }
  res.end(body)
  return bytes
}

/** The body in `encoding`, kept with the answer when the cache that holds it has room for it. */
function compressedBody(answer: CachedResponse, encoding: Encoding): Buffer {
  const kept = answer.compressed?.[encoding]
  if (kept) return kept
  const made = compress(answer.body, encoding)
  if (answer.grow?.(made.length)) (answer.compressed ??= {})[encoding] = made
  return made
}

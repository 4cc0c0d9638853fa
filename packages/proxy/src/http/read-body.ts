// Reading a request body within BODY_LIMIT_BYTES (body.ts), with server-kit's readers: as it
// arrives, decompressing gzip/deflate, and stopping at the limit without reading any further.
// Node's request is read as a Node stream; a web `Request` (the Worker, through h3's web
// adapter) as a web stream, under the same limits.
import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import { COMPRESSION_FRAMING_BYTES, type BodyReadOptions, readLimitedBody, readLimitedWebBody } from '@vexil/server-kit'
import { BODY_LIMIT_BYTES } from './body.js'
import { ProxyError } from './errors.js'

/**
 * Reads the whole body as UTF-8 text, at most `limit` bytes after decoding and, for a compressed
 * body, at most `limit` (plus framing) bytes as sent. A declared length over that is refused
 * before anything is read. Past the limit it rejects 413 and stops reading; the 413 answer
 * closes the connection. An encoding other than gzip or deflate is 415.
 */
export async function readBodyText(event: H3Event, limit = BODY_LIMIT_BYTES): Promise<string> {
  const req = event.node.req
  const encoding = contentEncoding(req)
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > (encoding ? limit + COMPRESSION_FRAMING_BYTES : limit))
    throw tooLarge(limit)
  const options: BodyReadOptions = {
    limit,
    ...(encoding ? { encoding } : {}),
    tooLarge: () => tooLarge(limit),
    failed: (cause) => new ProxyError('INVALID_JSON', cause.message),
  }
  const web = event.web?.request
  if (web) return UTF8.decode(await readLimitedWebBody(web.body, options))
  return (await readLimitedBody(req, options)).toString('utf8')
}

const UTF8 = new TextDecoder()

// --- Internal helpers ---

function contentEncoding(req: IncomingMessage): 'gzip' | 'deflate' | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase()
  if (encoding === 'identity') return undefined
  if (encoding === 'gzip' || encoding === 'deflate') return encoding
  throw new ProxyError('UNSUPPORTED_MEDIA_TYPE', `unsupported content encoding "${encoding}"`)
}

function tooLarge(limit: number): ProxyError {
  return new ProxyError('BODY_TOO_LARGE', `Request body is larger than the limit of ${limit} bytes`, limit)
}

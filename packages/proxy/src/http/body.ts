// Request bodies as the old proxy's `express.json()` read them (unleash-proxy-behavior.md 1.2,
// 3.5): 415 for a body that is not JSON (a body without a content type counts as JSON), strict
// JSON (an object or an array at the top), gzip/deflate bodies, a 100 kB limit. Vexil answers
// 413 JSON for an oversize body and 415 for an unsupported encoding or charset (the old proxy
// answered 500 for all three).
import type { IncomingMessage } from 'node:http'
import { createGunzip, createInflate } from 'node:zlib'
import type { Readable, Transform } from 'node:stream'
import { ProxyError } from './errors.js'

export const BODY_LIMIT_BYTES = 100 * 1024
/**
 * What gzip/deflate add around a body that does not compress: headers, trailers and 5 bytes per
 * 64 kB stored block. A compressed body may be this much longer than the limit, never more.
 */
const COMPRESSION_FRAMING_BYTES = 1024

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/** Throws 415 unless the request's content type is JSON (or absent). */
export function assertJsonContentType(req: IncomingMessage): void {
  const type = req.headers['content-type']
  if (type === undefined || type === 'application/json') return
  const mime = type.split(';')[0]!.trim().toLowerCase()
  if (mime !== 'application/json') throw new ProxyError('UNSUPPORTED_MEDIA_TYPE', `unsupported content type "${mime}"`)
  const charset = /;\s*charset\s*=\s*"?([^";]+)"?/i.exec(type)?.[1]?.toLowerCase()
  if (charset && charset !== 'utf-8' && charset !== 'utf8') throw new ProxyError('UNSUPPORTED_MEDIA_TYPE', `unsupported charset "${charset}"`)
}

/** The decompressor for the request's Content-Encoding, or undefined for identity. */
function createDecoder(req: IncomingMessage): Transform | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase()
  if (encoding === 'identity') return undefined
  if (encoding === 'gzip') return createGunzip()
  if (encoding === 'deflate') return createInflate()
  throw new ProxyError('UNSUPPORTED_MEDIA_TYPE', `unsupported content encoding "${encoding}"`)
}

/**
 * Reads the whole body as UTF-8 text, at most `limit` bytes after decoding and, for a compressed
 * body, at most `limit` (plus framing) bytes as sent: empty deflate blocks decompress to nothing
 * and would otherwise be read without end. Bytes are counted as they arrive (chunked bodies
 * included). Past the limit it rejects 413 at once and stops: the decompressor is destroyed and
 * the request is paused, never read further; the 413 answer closes the connection.
 */
export function readBodyText(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length'])
  const tooLarge = () => new ProxyError('BODY_TOO_LARGE', `Request body is larger than the limit of ${limit} bytes`, limit)
  let decoder: Transform | undefined
  try {
    decoder = createDecoder(req)
  } catch (error) {
    return Promise.reject(error)
  }
  const sentLimit = decoder ? limit + COMPRESSION_FRAMING_BYTES : limit
  if (Number.isFinite(declared) && declared > sentLimit) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const stream: Readable = decoder ? req.pipe(decoder) : req
    const chunks: Buffer[] = []
    let size = 0
    let sent = 0
    let done = false
    const stop = () => {
      done = true
      stream.off('data', onData)
      if (decoder) {
        req.off('data', onSent)
        req.unpipe(decoder)
        decoder.destroy()
      }
      req.pause()
    }
    const onSent = (chunk: Buffer) => {
      sent += chunk.length
      if (sent > sentLimit && !done) {
        stop()
        reject(tooLarge())
      }
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        stop()
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    }
    if (decoder) req.on('data', onSent)
    stream.on('data', onData)
    stream.on('end', () => {
      // A small body arrives in one chunk: decoded as it is, without a copy into a new buffer.
      if (!done) resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'))
      done = true
    })
    stream.on('error', (error) => {
      if (done) return
      done = true
      if (decoder) {
        // As body-parser did: read off the rest of the request. Left half read, the body
        // blocks the keep-alive connection and the client's next request on it is reset.
        req.off('data', onSent)
        req.unpipe(decoder)
        req.resume()
      }
      reject(new ProxyError('INVALID_JSON', error.message))
    })
  })
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

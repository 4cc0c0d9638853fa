// Reading a request body within BODY_LIMIT_BYTES (body.ts): as it arrives, decompressing
// gzip/deflate, and stopping at the limit without reading or decompressing any further.
import type { IncomingMessage } from 'node:http'
import type { Transform } from 'node:stream'
import { createGunzip, createInflate } from 'node:zlib'
import { BODY_LIMIT_BYTES } from './body.js'
import { ProxyError } from './errors.js'

/**
 * What gzip/deflate add around a body that does not compress: headers, trailers and 5 bytes per
 * 64 kB stored block. A compressed body may be this much longer than the limit, never more.
 */
const COMPRESSION_FRAMING_BYTES = 1024

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
  let decoder: Transform | undefined
  try {
    decoder = createDecoder(req)
  } catch (error) {
    return Promise.reject(error)
  }
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > (decoder ? limit + COMPRESSION_FRAMING_BYTES : limit)) return Promise.reject(tooLarge(limit))
  return decoder ? readDecoded(req, decoder, limit) : readPlain(req, limit)
}

// --- Internal helpers ---

function tooLarge(limit: number): ProxyError {
  return new ProxyError('BODY_TOO_LARGE', `Request body is larger than the limit of ${limit} bytes`, limit)
}

/** A small body arrives in one chunk: decoded as it is, without a copy into a new buffer. */
function utf8(chunks: Buffer[]): string {
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')
}

/** The hot path (POST /proxy): no more than the handlers it needs. */
function readPlain(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) {
        chunks.push(chunk)
        return
      }
      done = true
      req.off('data', onData)
      req.pause()
      reject(tooLarge(limit))
    }
    req.on('data', onData)
    req.on('end', () => {
      if (!done) resolve(utf8(chunks))
      done = true
    })
    req.on('error', (error) => {
      if (done) return
      done = true
      reject(new ProxyError('INVALID_JSON', error.message))
    })
  })
}

function readDecoded(req: IncomingMessage, decoder: Transform, limit: number): Promise<string> {
  const sentLimit = limit + COMPRESSION_FRAMING_BYTES
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let sent = 0
    let done = false
    const stop = () => {
      done = true
      req.off('data', onSent)
      decoder.off('data', onData)
      req.unpipe(decoder)
      decoder.destroy()
      req.pause()
      reject(tooLarge(limit))
    }
    const onSent = (chunk: Buffer) => {
      sent += chunk.length
      if (sent > sentLimit && !done) stop()
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) stop()
      else chunks.push(chunk)
    }
    req.on('data', onSent)
    req.pipe(decoder)
    decoder.on('data', onData)
    decoder.on('end', () => {
      if (!done) resolve(utf8(chunks))
      done = true
    })
    decoder.on('error', (error) => {
      if (done) return
      done = true
      // As body-parser did: read off the rest of the request. Left half read, the body
      // blocks the keep-alive connection and the client's next request on it is reset.
      req.off('data', onSent)
      req.unpipe(decoder)
      req.resume()
      reject(new ProxyError('INVALID_JSON', error.message))
    })
  })
}

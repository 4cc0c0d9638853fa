// Reading a request body within a byte limit, as it arrives: chunked bodies (no Content-Length)
// are held to the same limit, gzip/deflate bodies are decompressed as they arrive, and past the
// limit reading stops at once (the answer, a 413, closes the connection).
import type { IncomingMessage } from 'node:http'
import type { Transform } from 'node:stream'
import { createGunzip, createInflate } from 'node:zlib'

export interface BodyReadOptions {
  /** The most bytes the body may have (after decompression). */
  limit: number
  /** Decompress as it arrives; the bytes as sent are then held to `limit` plus framing. */
  encoding?: 'gzip' | 'deflate'
  /** The error to reject with past the limit. */
  tooLarge(): Error
  /** The error to reject with when the body breaks off, fails to arrive or fails to decompress. */
  failed(cause: Error): Error
}

/**
 * What gzip/deflate add around a body that does not compress: headers, trailers and 5 bytes per
 * 64 kB stored block. A compressed body may be this much longer than the limit, never more
 * (empty deflate blocks decompress to nothing and would otherwise be read without end).
 */
export const COMPRESSION_FRAMING_BYTES = 1024

export const ABORTED_BODY_MESSAGE = 'The request was aborted before its body ended.'

/** The whole body. A body that arrives in one chunk is returned as it is, without a copy. */
export function readLimitedBody(req: IncomingMessage, options: BodyReadOptions): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0))
  if (options.encoding) return readDecoded(req, decoderFor(options.encoding), options)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (settle: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose)
      settle()
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= options.limit) chunks.push(chunk)
      else
        finish(() => {
          req.pause()
          reject(options.tooLarge())
        })
    }
    const onEnd = () => finish(() => resolve(joined(chunks)))
    const onError = (error: Error) => finish(() => reject(options.failed(error)))
    const onClose = () => finish(() => reject(options.failed(new Error(ABORTED_BODY_MESSAGE))))
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose)
  })
}

// --- Internal helpers ---

function decoderFor(encoding: 'gzip' | 'deflate'): Transform {
  return encoding === 'gzip' ? createGunzip() : createInflate()
}

function joined(chunks: Buffer[]): Buffer {
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
}

function readDecoded(req: IncomingMessage, decoder: Transform, options: BodyReadOptions): Promise<Buffer> {
  const sentLimit = options.limit + COMPRESSION_FRAMING_BYTES
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let sent = 0
    let done = false
    const detach = () => {
      done = true
      req.off('data', onSent).off('close', onClose)
      req.unpipe(decoder)
    }
    const stop = () => {
      detach()
      decoder.off('data', onData)
      decoder.destroy()
      req.pause()
      reject(options.tooLarge())
    }
    const onSent = (chunk: Buffer) => {
      sent += chunk.length
      if (sent > sentLimit && !done) stop()
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > options.limit) stop()
      else chunks.push(chunk)
    }
    const onClose = () => {
      if (done || req.readableEnded) return
      detach()
      decoder.destroy()
      reject(options.failed(new Error(ABORTED_BODY_MESSAGE)))
    }
    req.on('data', onSent).on('close', onClose)
    req.pipe(decoder)
    decoder.on('data', onData)
    decoder.on('end', () => {
      if (done) return
      detach()
      resolve(joined(chunks))
    })
    decoder.on('error', (error) => {
      if (done) return
      // As body-parser did: read off the rest of the request. Left half read, the body
      // blocks the keep-alive connection and the client's next request on it is reset.
      detach()
      req.resume()
      reject(options.failed(error))
    })
  })
}

// One upstream call (@vexil/sync's SendRequest) through the upstream's dispatcher (dispatcher.ts),
// with a timeout on the answer's headers and on each silence in its body, and status and headers
// read exactly. Where there is no Node (a Worker), @vexil/sync's fetchRequest does it.
import type { Readable, Transform } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { HttpRequestOptions, SendRequest } from '@vexil/sync'
import type { Dispatcher } from 'undici'

export function createSendRequest(dispatcher: Dispatcher): SendRequest {
  return async (url, options) => {
    const target = new URL(url)
    let res: Dispatcher.ResponseData
    try {
      res = await dispatcher.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: options.method,
        headers: options.headers,
        body: options.body,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      })
    } catch (error) {
      throw timeoutOr(error, target, options)
    }
    try {
      return {
        status: res.statusCode,
        headers: res.headers,
        body: await readText(res.body, res.headers['content-encoding']),
      }
    } catch (error) {
      throw timeoutOr(error, target, options)
    }
  }
}

// --- Internal helpers ---

/**
 * Decoded as it arrives, into a string: never one buffer of the whole body (11 MB with 10k
 * flags), whose release raises glibc's mmap threshold to its size, after which the ~300 KB /proxy
 * answers come from malloc arenas that keep freed memory resident.
 */
function readText(body: Readable, encoding: string | string[] | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const decoder = decoderFor(typeof encoding === 'string' ? encoding : undefined)
    const text = decoder ? body.pipe(decoder) : body
    // undici's body ignores setEncoding: characters cut between chunks are joined here.
    const utf8 = new StringDecoder('utf8')
    let result = ''
    text.on('data', (chunk: Buffer) => (result += utf8.write(chunk)))
    text.on('end', () => resolve(result + utf8.end()))
    text.on('error', reject)
    if (decoder) body.on('error', reject)
  })
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip()
    case 'deflate':
      return createInflate()
    case 'br':
      return createBrotliDecompress()
    default:
      return undefined
  }
}

function timeoutOr(error: unknown, target: URL, options: HttpRequestOptions): unknown {
  const code = (error as { code?: string }).code
  if (code !== 'UND_ERR_HEADERS_TIMEOUT' && code !== 'UND_ERR_BODY_TIMEOUT') return error
  return new Error(`request to ${target.origin}${target.pathname} timed out after ${options.timeoutMs} ms`)
}

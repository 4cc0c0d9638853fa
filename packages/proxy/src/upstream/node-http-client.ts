// A minimal HTTP client for upstream calls on node:http/https (@vexil/sync's SendRequest): it lets
// us set TLS verification (httpOptions.rejectUnauthorized), a hard timeout, and read status and
// headers exactly. Where there is no node:http (a Worker), @vexil/sync's fetchRequest does it.
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { HttpRequestOptions, HttpResponse } from '@vexil/sync'

export function sendRequest(url: string, options: HttpRequestOptions): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url)
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(
      target,
      {
        method: options.method,
        headers: { ...options.headers, ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}) },
        rejectUnauthorized: options.rejectUnauthorized,
        timeout: options.timeoutMs,
      },
      (res) => {
        // Decoded as it arrives, into a string: never one buffer of the whole body (11 MB with
        // 10k flags), whose release raises glibc's mmap threshold to its size, after which the
        // ~300 KB /proxy answers come from malloc arenas that keep freed memory resident.
        const decoder = decoderFor(res.headers['content-encoding'])
        const text = decoder ? res.pipe(decoder) : res
        let body = ''
        text.setEncoding('utf8')
        text.on('data', (chunk: string) => (body += chunk))
        text.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        text.on('error', reject)
        if (decoder) res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`request to ${target.origin}${target.pathname} timed out after ${options.timeoutMs} ms`)))
    req.on('error', reject)
    req.end(options.body)
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

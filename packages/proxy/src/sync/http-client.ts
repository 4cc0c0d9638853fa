// A minimal HTTP client for upstream calls on node:http/https: it lets us set TLS verification
// (httpOptions.rejectUnauthorized), a hard timeout, and read status and headers exactly.
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface HttpRequestOptions {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  timeoutMs: number
  rejectUnauthorized: boolean
}

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
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: decode(Buffer.concat(chunks), res.headers['content-encoding']).toString('utf8') })
          } catch (error) {
            reject(error)
          }
        })
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`request to ${target.origin}${target.pathname} timed out after ${options.timeoutMs} ms`)))
    req.on('error', reject)
    req.end(options.body)
  })
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body)
    case 'deflate':
      return inflateSync(body)
    case 'br':
      return brotliDecompressSync(body)
    default:
      return body
  }
}

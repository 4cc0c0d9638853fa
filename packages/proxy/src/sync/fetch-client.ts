// The upstream calls over the runtime's `fetch`, for runtimes without node:http's client (a
// Cloudflare Worker): same request and answer shapes as http-client.ts. The runtime decodes
// compressed answers itself and always verifies TLS (`rejectUnauthorized: false` cannot apply).
import type { HttpRequestOptions, HttpResponse, SendRequest } from './http-client.js'

export const sendFetchRequest: SendRequest = async (url: string, options: HttpRequestOptions): Promise<HttpResponse> => {
  const headers = new Headers(options.headers)
  // The runtime negotiates the encoding it can decode.
  headers.delete('accept-encoding')
  let res: Response
  try {
    res = await fetch(url, { method: options.method, headers, body: options.body, signal: AbortSignal.timeout(options.timeoutMs) })
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      const target = new URL(url)
      throw new Error(`request to ${target.origin}${target.pathname} timed out after ${options.timeoutMs} ms`)
    }
    throw error
  }
  const answer: HttpResponse['headers'] = {}
  res.headers.forEach((value, name) => {
    answer[name] = value
  })
  return { status: res.status, headers: answer, body: await res.text() }
}

// Raw HTTP for the service fuzz: method, path and headers go on the wire exactly as generated
// (fetch would normalise the path, refuse odd methods and set its own Host).
import { type Agent, type IncomingHttpHeaders, request } from 'node:http'

/** One request, as sent. */
export interface FuzzRequest {
  /** The route-table row it was generated from (`POST /api/admin/segments`), or `off the table`. */
  target: string
  /** The credential's label (`no credential`, `admin token`, …). */
  credential: string
  method: string
  /** Path and query, as on the wire. */
  path: string
  headers: Record<string, string>
  body: Buffer | undefined
  /** Sent without Content-Length, so Node sends the body chunked. */
  chunked: boolean
}

export interface FuzzResponse {
  status: number
  headers: IncomingHttpHeaders
  text: string
}

/** Sends `fuzz` to the server at `port`; rejects when no answer ends within `timeoutMs` (a hang). */
export function sendRaw(port: number, agent: Agent, fuzz: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...fuzz.headers,
      ...(fuzz.body && !fuzz.chunked ? { 'content-length': String(fuzz.body.length) } : {}),
    }
    const req = request(
      { host: '127.0.0.1', port, method: fuzz.method, path: fuzz.path, agent, headers, setHost: false },
      (res) => {
        // A stream (/api/client/streaming) never ends by itself: its status and headers are the answer.
        if (res.headers['content-type'] === 'text/event-stream') {
          clearTimeout(timer)
          res.destroy()
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' })
          return
        }
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          clearTimeout(timer)
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') })
        })
        res.on('error', fail)
      },
    )
    // A hard deadline for the whole exchange: a socket timeout would restart with every trickled byte.
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    function fail(error: Error) {
      clearTimeout(timer)
      reject(error)
    }
    req.on('error', fail)
    if (fuzz.chunked && fuzz.body) req.write(fuzz.body)
    req.end(fuzz.chunked ? undefined : fuzz.body)
  })
}

/** The request in one line, long parts cut, so that a report of hundreds stays readable. */
export function describeRequest(fuzz: FuzzRequest): string {
  const body = fuzz.body === undefined ? '(no body)' : cut(fuzz.body.toString('latin1'), 300)
  const headers = Object.fromEntries(Object.entries(fuzz.headers).map(([name, value]) => [name, cut(value, 120)]))
  return `${fuzz.method} ${cut(fuzz.path, 300)} as ${fuzz.credential}${fuzz.chunked ? ' (chunked)' : ''} ${JSON.stringify(headers)} ${body}`
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text
}

// One HTTP request with exactly the given headers (Node adds only Host and Connection), its answer
// kept as sent: status, headers in original order and case, body bytes not decompressed. For
// tests that compare two servers' answers byte for byte.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  /** Header names and values as sent, in order and original case (`[name, value, name, value, …]`). */
  rawHeaders: string[]
  /** The body bytes exactly as sent (not decompressed). */
  raw: Buffer
  text: string
  /** `text` parsed as JSON, or undefined when it is not JSON. */
  json: unknown
}

export interface RequestOptions {
  headers?: Record<string, string>
  /** A string or Buffer is sent as is; anything else as JSON (with `content-type: application/json`). */
  body?: unknown
  timeoutMs?: number
}

/** `method path` on `base` (`http://host:port`), the path sent as given; rejects only when no answer arrives. */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  { headers = {}, body, timeoutMs = 15_000 }: RequestOptions = {},
): Promise<RawResponse> {
  const payload =
    body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
  const sendHeaders: Record<string, string> = { ...headers }
  if (
    payload !== undefined &&
    typeof body !== 'string' &&
    !Buffer.isBuffer(body) &&
    !Object.keys(sendHeaders).some((name) => name.toLowerCase() === 'content-type')
  ) {
    sendHeaders['content-type'] = 'application/json'
  }
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers: sendHeaders, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const raw = Buffer.concat(chunks)
        const text = raw.toString('utf8')
        let json: unknown
        try {
          json = text ? JSON.parse(text) : undefined
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, raw, text, json })
      })
    })
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} timed out`)))
    req.on('error', reject)
    req.end(payload)
  })
}

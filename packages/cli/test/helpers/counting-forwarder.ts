// A tiny reverse proxy on 127.0.0.1 in front of a running service that records every request it
// forwards (method, path, and for POST /edge/validate the tokens asked about), so a test can
// count what reached the service without touching it.
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ForwardedRequest {
  method: string
  path: string
  /** For POST /edge/validate: the `tokens` of the body (empty when it was not readable). */
  tokens: string[]
  at: number
}

export interface CountingForwarder {
  /** `http://127.0.0.1:<port>`: use it where the service's URL would go. */
  url: string
  readonly requests: readonly ForwardedRequest[]
  /** The POST /edge/validate calls forwarded so far. */
  validations(): ForwardedRequest[]
  close(): Promise<void>
}

export async function startCountingForwarder(target: string): Promise<CountingForwarder> {
  const upstream = new URL(target)
  const requests: ForwardedRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const path = req.url ?? '/'
      let tokens: string[] = []
      if (req.method === 'POST' && path.split('?')[0] === '/edge/validate') {
        try {
          const parsed = JSON.parse(body.toString('utf8')) as { tokens?: unknown }
          if (Array.isArray(parsed.tokens)) tokens = parsed.tokens.filter((t): t is string => typeof t === 'string')
        } catch {
          tokens = []
        }
      }
      requests.push({ method: req.method ?? '', path, tokens, at: Date.now() })
      const headers = { ...req.headers, host: upstream.host }
      delete headers['content-length']
      delete headers['transfer-encoding']
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path,
          headers: { ...headers, 'content-length': String(body.length) },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      out.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
        res.end(`forwarder: ${error.message}`)
      })
      out.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    validations: () => requests.filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/edge/validate'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// A fake upstream service for proxy tests: a real node:http server on 127.0.0.1 that serves a
// client features payload with a strong ETag (304 on If-None-Match), accepts registrations and
// metrics, records every request, and can be told to fail.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: string
  at: number
}

export interface FailureMode {
  /** Answer with this status (and optional headers/body) instead of the normal answer. */
  status: number
  headers?: Record<string, string>
  body?: string
}

export interface FakeUpstream {
  /** The API root to configure as serviceUrl (`http://127.0.0.1:<port>/api`). */
  url: string
  port: number
  requests: RecordedRequest[]
  /** Requests to one path ('/client/features', '/client/metrics', '/client/register'). */
  requestsTo(path: string): RecordedRequest[]
  setFeatures(payload: unknown): void
  /** What `/client/features` answers to the requests with this Authorization (others get the default payload). */
  setFeaturesFor(token: string, payload: unknown): void
  /** The tokens `POST /edge/validate` says are valid (none until set). */
  setValidTokens(tokens: ValidToken[]): void
  /** Fail every request sent with this Authorization (a revoked token), until cleared with `undefined`. */
  failFor(authorization: string, mode: FailureMode | undefined): void
  /** Fail every request to `path` (or all paths) until cleared with `undefined`. */
  fail(mode: FailureMode | undefined, path?: string): void
  /** Close connections without answering (a network error) for `path`. */
  drop(enabled: boolean, path?: string): void
  waitFor(predicate: (requests: RecordedRequest[]) => boolean, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** A token as Unleash's `POST /edge/validate` lists it. */
export interface ValidToken {
  token: string
  type: 'client' | 'frontend' | 'admin'
  projects: readonly string[]
  environment: string
}

const strongEtag = (body: string) => `"${createHash('sha1').update(body).digest('hex')}"`

export async function startFakeUpstream(
  initial: unknown = { version: 2, features: [], segments: [] },
): Promise<FakeUpstream> {
  let features = JSON.stringify(initial)
  let validTokens: ValidToken[] = []
  const featuresByToken = new Map<string, string>()
  const failures = new Map<string, FailureMode>()
  const failuresByToken = new Map<string, FailureMode>()
  const drops = new Set<string>()
  const requests: RecordedRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream')
      const path = url.pathname.replace(/^\/api/, '')
      requests.push({
        method: req.method ?? 'GET',
        path,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      })
      if (drops.has(path) || drops.has('*')) {
        req.socket.destroy()
        return
      }
      const failure =
        failures.get(path) ??
        failures.get('*') ??
        (req.headers.authorization !== undefined ? failuresByToken.get(req.headers.authorization) : undefined)
      if (failure) {
        res.writeHead(failure.status, failure.headers ?? {})
        res.end(failure.body ?? '')
        return
      }
      if (path === '/client/features' && req.method === 'GET') {
        const auth = req.headers.authorization
        const body = (auth !== undefined && featuresByToken.get(auth)) || features
        const etag = strongEtag(body)
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304, { etag })
          res.end()
          return
        }
        res.writeHead(200, { 'content-type': 'application/json', etag })
        res.end(body)
        return
      }
      if (url.pathname === '/edge/validate' && req.method === 'POST') {
        let asked: unknown
        try {
          asked = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tokens?: unknown }).tokens
        } catch {
          asked = undefined
        }
        if (!Array.isArray(asked)) {
          res.writeHead(400, { 'content-type': 'application/json' })
          res.end('{"message":"tokens is required"}')
          return
        }
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ tokens: asked.flatMap((secret) => validTokens.filter((t) => t.token === secret)) }))
        return
      }
      if ((path === '/client/metrics' || path === '/client/register') && req.method === 'POST') {
        res.writeHead(202)
        res.end()
        return
      }
      res.writeHead(404)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/api`,
    port,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    setFeatures(payload) {
      features = JSON.stringify(payload)
    },
    setFeaturesFor(token, payload) {
      featuresByToken.set(token, JSON.stringify(payload))
    },
    setValidTokens(tokens) {
      validTokens = tokens
    },
    failFor(authorization, mode) {
      if (mode) failuresByToken.set(authorization, mode)
      else failuresByToken.delete(authorization)
    },
    fail(mode, path = '*') {
      if (mode) failures.set(path, mode)
      else failures.delete(path)
    },
    drop(enabled, path = '*') {
      if (enabled) drops.add(path)
      else drops.delete(path)
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      while (!predicate(requests)) {
        if (Date.now() > deadline)
          throw new Error(`fake upstream: condition not met within ${timeoutMs} ms (${requests.length} requests seen)`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

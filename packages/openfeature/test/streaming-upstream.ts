// A fake upstream with a stream of changes, as the Vexil service and Unleash Enterprise serve
// `/api/client/streaming`: `unleash-connected` (a hydration, or nothing when Last-Event-ID is the
// current revision) then `unleash-updated` per change, each with the revision as its id. Also
// `/api/client/features` (for the polling fallback) and 202 for metrics and registrations. A real
// node:http server on 127.0.0.1; every request recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StreamingUpstream {
  url: string
  /** Each request: its path and the headers that matter here. */
  requests: Array<{ path: string; lastEventId: string | undefined; authorization: string | undefined }>
  requestsTo(path: string): StreamingUpstream['requests']
  readonly openStreams: number
  /** Replaces one flag (or adds it), as a `feature-updated` event to open streams. */
  update(feature: { name: string } & Record<string, unknown>): void
  /** Cuts every open stream (the server stays up). */
  dropStreams(): void
  /** What `/client/streaming` answers instead of a stream (undefined: a stream; 'hang': nothing at all). */
  refuseStreams(status: number | 'hang' | undefined): void
  close(): Promise<void>
}

export async function startStreamingUpstream(
  features: Array<{ name: string } & Record<string, unknown>>,
): Promise<StreamingUpstream> {
  const flags = new Map(features.map((feature) => [feature.name, feature]))
  let revision = 1
  let refusal: number | 'hang' | undefined
  const streams = new Set<ServerResponse>()
  const requests: StreamingUpstream['requests'] = []
  const send = (res: ServerResponse, event: string, data: unknown) =>
    res.write(`event: ${event}\nid: ${revision}\ndata: ${JSON.stringify(data)}\n\n`)
  const hydration = () => ({
    events: [{ type: 'hydration', eventId: revision, features: [...flags.values()], segments: [] }],
  })

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://upstream').pathname.replace(/^\/api/, '')
    const lastEventId = req.headers['last-event-id'] as string | undefined
    requests.push({ path, lastEventId, authorization: req.headers.authorization })
    req.resume()
    if (path === '/client/streaming') {
      if (refusal === 'hang') return
      if (refusal !== undefined) {
        res.writeHead(refusal).end()
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      send(res, 'unleash-connected', lastEventId === String(revision) ? { events: [] } : hydration())
      streams.add(res)
      res.on('close', () => streams.delete(res))
      return
    }
    if (path === '/client/features') {
      res
        .writeHead(200, { 'content-type': 'application/json', etag: `"${revision}"` })
        .end(JSON.stringify({ version: 2, features: [...flags.values()], segments: [] }))
      return
    }
    res.writeHead(req.method === 'POST' ? 202 : 404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    get openStreams() {
      return streams.size
    },
    update(feature) {
      flags.set(feature.name, feature)
      revision++
      for (const res of streams)
        send(res, 'unleash-updated', { events: [{ type: 'feature-updated', eventId: revision, feature }] })
    },
    dropStreams() {
      for (const res of streams) res.destroy()
    },
    refuseStreams(status) {
      refusal = status
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

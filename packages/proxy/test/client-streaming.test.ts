import { describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { openStream, type OpenStream } from '@vexil/test-fixtures/event-stream.ts'
import { timeUntil } from '@vexil/test-fixtures/wait-for.ts'
import { CLIENT_KEY, type TestProxy, type TestProxyOptions, useServers } from './helpers/proxy.js'

// The proxy streams to server SDKs per token scope (issue 18): `/api/client/streaming` and
// `/api/client/delta`, as Unleash Enterprise and Edge serve them (reference/edge-and-frontend-api.md
// section 3). A real listening proxy polling a fake upstream every 50 ms; the SDK's side is
// played by applying each message's events the way unleash-client does.

const servers = useServers()

const CLIENT = '*:development.stream-client-1'
const P1_CLIENT = 'p1:development.stream-p1-client-1'
const FRONTEND = '*:development.stream-front-1'

interface Feature {
  name: string
  project?: string
  enabled: boolean
  strategies: unknown[]
  [key: string]: unknown
}
interface Segment {
  id: number
  constraints: unknown[]
  [key: string]: unknown
}

const flag = (name: string, project: string, enabled = true, extra: Record<string, unknown> = {}): Feature => ({
  name,
  project,
  enabled,
  strategies: [{ name: 'default' }],
  ...extra,
})
const segment = (id: number, value: string): Segment => ({
  id,
  name: `s${id}`,
  constraints: [{ contextName: 'userId', operator: 'IN', values: [value] }],
})
const payload = (features: Feature[], segments: Segment[] = []) => ({ version: 2, features, segments })

async function setUp(
  options: TestProxyOptions = {},
  first = payload([flag('a-one', 'p1'), flag('b-two', 'p2')]),
): Promise<{ upstream: FakeUpstream; proxy: TestProxy }> {
  const upstream = await servers.upstream(payload([]))
  upstream.setFeaturesFor(CLIENT, first)
  upstream.setValidTokens([
    { token: CLIENT, type: 'client', environment: 'development', projects: ['*'] },
    { token: P1_CLIENT, type: 'client', environment: 'development', projects: ['p1'] },
    { token: FRONTEND, type: 'frontend', environment: 'development', projects: ['*'] },
  ])
  const proxy = await servers.proxy(upstream, { tokens: [CLIENT], refreshInterval: 50, ...options })
  return { upstream, proxy }
}

async function stream(
  proxy: TestProxy,
  token: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const opened = await openStream(proxy.at(`/api/client/streaming${query}`), { authorization: token, ...headers })
  servers.defer(() => opened.close())
  return opened
}

/** What an SDK holds, changed by each message as unleash-client applies it. */
class SdkState {
  features = new Map<string, Feature>()
  segments = new Map<number, Segment>()
  apply(data: string): void {
    for (const event of (JSON.parse(data) as { events: Array<Record<string, any>> }).events) {
      switch (event.type) {
        case 'hydration':
          this.features = new Map((event.features as Feature[]).map((f) => [f.name, f]))
          this.segments = new Map((event.segments as Segment[]).map((s) => [s.id, s]))
          break
        case 'feature-updated':
          this.features.set(event.feature.name, event.feature)
          break
        case 'feature-removed':
          this.features.delete(event.featureName)
          break
        case 'segment-updated':
          this.segments.set(event.segment.id, event.segment)
          break
        case 'segment-removed':
          this.segments.delete(event.segmentId)
          break
        default:
          throw new Error(`unknown event ${event.type}`)
      }
    }
  }
  /** As /api/client/features lists them: features in the payload's order compared by name. */
  same(body: { features: Feature[]; segments: Segment[] }): boolean {
    const byName = (list: Iterable<Feature>) => JSON.stringify([...list].sort((x, y) => x.name.localeCompare(y.name)))
    const byId = (list: Iterable<Segment>) => JSON.stringify([...list].sort((x, y) => x.id - y.id))
    return (
      byName(this.features.values()) === byName(body.features) && byId(this.segments.values()) === byId(body.segments)
    )
  }
}

const features = async (proxy: TestProxy, token: string, query = '') =>
  (await (await fetch(proxy.at(`/api/client/features${query}`), { headers: { authorization: token } })).json()) as {
    features: Feature[]
    segments: Segment[]
  }

describe('/api/client/streaming on the proxy', () => {
  it('a hydration, then each change as delta events: a client applying them stays equal to /api/client/features, per token and filter', async () => {
    const { upstream, proxy } = await setUp()
    const callers = [
      { token: CLIENT, query: '' },
      { token: P1_CLIENT, query: '' },
      { token: CLIENT, query: '?project=p2' },
      { token: CLIENT, query: '?namePrefix=a-' },
    ]
    const streams = await Promise.all(callers.map((caller) => stream(proxy, caller.token, caller.query)))
    const states = callers.map(() => new SdkState())
    for (const [i, opened] of streams.entries()) {
      expect(opened.status).toBe(200)
      expect(opened.headers.get('content-type')).toBe('text/event-stream')
      const connected = await opened.next()
      expect(connected.event).toBe('unleash-connected')
      expect(JSON.parse(connected.data).events[0].type).toBe('hydration')
      states[i]!.apply(connected.data)
      expect(states[i]!.same(await features(proxy, callers[i]!.token, callers[i]!.query))).toBe(true)
    }
    // Every kind of change, one at a time: added, changed, segment added then used, segment
    // changed, moved between projects, removed, segment removed.
    const steps: Array<{ features: Feature[]; segments?: Segment[] }> = [
      { features: [flag('a-one', 'p1'), flag('b-two', 'p2'), flag('a-three', 'p2')] },
      { features: [flag('a-one', 'p1', false), flag('b-two', 'p2'), flag('a-three', 'p2')] },
      {
        features: [flag('a-one', 'p1', false), flag('b-two', 'p2'), flag('a-three', 'p2')],
        segments: [segment(1, 'u1')],
      },
      {
        features: [
          flag('a-one', 'p1', true, { strategies: [{ name: 'default', segments: [1] }] }),
          flag('b-two', 'p2'),
          flag('a-three', 'p2'),
        ],
        segments: [segment(1, 'u1')],
      },
      {
        features: [
          flag('a-one', 'p1', true, { strategies: [{ name: 'default', segments: [1] }] }),
          flag('b-two', 'p2'),
          flag('a-three', 'p2'),
        ],
        segments: [segment(1, 'u2')],
      },
      {
        features: [
          flag('a-one', 'p1', true, { strategies: [{ name: 'default', segments: [1] }] }),
          flag('b-two', 'p1'),
          flag('a-three', 'p2'),
        ],
        segments: [segment(1, 'u2')],
      },
      { features: [flag('b-two', 'p1'), flag('a-three', 'p2')], segments: [segment(1, 'u2')] },
      { features: [flag('b-two', 'p1'), flag('a-three', 'p2')] },
    ]
    const seen = callers.map(() => [] as string[])
    for (const step of steps) {
      upstream.setFeaturesFor(CLIENT, payload(step.features, step.segments ?? []))
      await timeUntil(
        async () => JSON.stringify((await features(proxy, CLIENT)).features) === JSON.stringify(step.features),
        'the proxy to poll the change',
      )
      for (const [i, caller] of callers.entries()) {
        const body = await features(proxy, caller.token, caller.query)
        // A caller whose view changed gets one message; one whose view did not, none.
        while (!states[i]!.same(body)) {
          const message = await streams[i]!.next(3_000)
          expect(message.event).toBe('unleash-updated')
          expect(JSON.parse(message.data).events.length).toBeGreaterThan(0)
          seen[i]!.push(message.data)
          states[i]!.apply(message.data)
        }
      }
    }
    // The project-scoped token never saw a p2 flag's name, not even in a removal.
    expect(seen[1]!.join('\n')).not.toContain('a-three')
    expect([...states[1]!.features.keys()]).toEqual(['b-two'])
  }, 30_000)
})

describe('reconnecting, keep-alives and limits', () => {
  it("a Last-Event-ID naming the client's flags gets an empty unleash-connected; any other id a hydration; ids hold across proxies", async () => {
    const { upstream, proxy } = await setUp()
    const first = await stream(proxy, CLIENT)
    const connected = await first.next()
    expect(connected.id).toMatch(/^[A-Za-z0-9_-]{27}$/)
    first.close()

    const current = await stream(proxy, CLIENT, '', { 'last-event-id': connected.id! })
    const empty = await current.next()
    expect(empty.event).toBe('unleash-connected')
    expect(empty.data).toBe('{"events":[]}')
    expect(empty.id).toBeUndefined()

    // Another proxy on the same flags names them alike (a reconnect to another instance or worker).
    const other = await servers.proxy(upstream, { tokens: [CLIENT], refreshInterval: 50 })
    const elsewhere = await stream(other, CLIENT, '', { 'last-event-id': connected.id! })
    expect((await elsewhere.next()).data).toBe('{"events":[]}')

    for (const id of ['unknown', '', '1', connected.id!.toLowerCase()]) {
      const stale = await stream(proxy, CLIENT, '', { 'last-event-id': id })
      const message = await stale.next()
      expect(JSON.parse(message.data).events.map((e: { type: string }) => e.type)).toEqual(['hydration'])
      expect(message.id).toBe(connected.id)
      stale.close()
    }
    // A filter is part of what an id names.
    const filtered = await stream(proxy, CLIENT, '?project=p1', { 'last-event-id': connected.id! })
    expect(JSON.parse((await filtered.next()).data).events[0].features.map((f: Feature) => f.name)).toEqual(['a-one'])
  })

  it('a Last-Event-ID a few changes old gets exactly the changes missed, not a hydration, per token and filter (finding 10)', async () => {
    const { upstream, proxy } = await setUp()
    const change = async (list: Feature[], segments: Segment[] = []) => {
      upstream.setFeaturesFor(CLIENT, payload(list, segments))
      await timeUntil(
        async () => JSON.stringify((await features(proxy, CLIENT)).features) === JSON.stringify(list),
        'the proxy to poll the change',
      )
    }
    const idNow = async (token: string, query: string) =>
      (await fetch(proxy.at(`/api/client/features${query}`), { headers: { authorization: token } })).headers
        .get('etag')!
        .slice(1, -1)
    // For each caller, one client stays connected and sees every change; the other leaves after the first.
    const callers = [
      { token: CLIENT, query: '' },
      { token: P1_CLIENT, query: '' },
      { token: CLIENT, query: '?namePrefix=a-' },
    ]
    const staying = await Promise.all(callers.map((caller) => stream(proxy, caller.token, caller.query)))
    const leaving = await Promise.all(callers.map((caller) => stream(proxy, caller.token, caller.query)))
    for (const opened of [...staying, ...leaving])
      expect(JSON.parse((await opened.next()).data).events[0].type).toBe('hydration')
    await change([flag('a-one', 'p1', false), flag('b-two', 'p2')])
    const leftAt: string[] = []
    for (const [i, opened] of leaving.entries()) {
      leftAt.push((await opened.next()).id!)
      await staying[i]!.next()
      opened.close()
    }
    // Missed: a flag added in each project, a segment made and used, a flag removed.
    const a1 = flag('a-one', 'p1', true, { strategies: [{ name: 'default', segments: [3] }] })
    await change([flag('a-one', 'p1', false), flag('b-two', 'p2'), flag('a-four', 'p1'), flag('c-five', 'p2')])
    await change([a1, flag('b-two', 'p2'), flag('a-four', 'p1'), flag('c-five', 'p2')], [segment(3, 'u3')])
    await change([a1, flag('a-four', 'p1'), flag('c-five', 'p2')], [segment(3, 'u3')])
    for (const [i, caller] of callers.entries()) {
      const current = await idNow(caller.token, caller.query)
      const missed: unknown[] = []
      for (let id = leftAt[i]; id !== current; ) {
        const message = await staying[i]!.next(3_000)
        missed.push(...JSON.parse(message.data).events)
        id = message.id
      }
      const back = await stream(proxy, caller.token, caller.query, { 'last-event-id': leftAt[i]! })
      const connected = await back.next()
      expect(connected.event).toBe('unleash-connected')
      expect(JSON.parse(connected.data).events).toEqual(missed)
      expect(connected.id).toBe(current)
      expect(missed.length).toBeGreaterThan(0)
    }
    // The project-scoped token's replay names no p2 flag.
    const p1 = await stream(proxy, P1_CLIENT, '', { 'last-event-id': leftAt[1]! })
    expect((await p1.next()).data).not.toMatch(/b-two|c-five/)
  })

  it('sends a keep-alive comment every STREAMING_KEEPALIVE_MS', async () => {
    const { proxy } = await setUp({ env: { STREAMING_KEEPALIVE_MS: '100' } })
    const opened = await stream(proxy, CLIENT)
    await opened.next()
    await timeUntil(() => opened.comments >= 3, 'three keep-alives', { timeoutMs: 2_000 })
  })

  it('STREAMING=false: both routes answer 404 (SDKs poll), /api/client/features still answers', async () => {
    const { proxy } = await setUp({ env: { STREAMING: 'false' } })
    for (const path of ['/api/client/streaming', '/api/client/delta']) {
      const res = await fetch(proxy.at(path), { headers: { authorization: CLIENT } })
      expect(res.status).toBe(404)
      expect((await res.json()).message).toContain('STREAMING=false')
    }
    expect((await fetch(proxy.at('/api/client/features'), { headers: { authorization: CLIENT } })).status).toBe(200)
  })

  it('past STREAMING_MAX_CONNECTIONS: 429 with Retry-After; a closed stream frees its place', async () => {
    const { proxy } = await setUp({ env: { STREAMING_MAX_CONNECTIONS: '2' } })
    const a = await stream(proxy, CLIENT)
    await stream(proxy, CLIENT)
    const refused = await fetch(proxy.at('/api/client/streaming'), { headers: { authorization: CLIENT } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect((await refused.json()).message).toContain('STREAMING_MAX_CONNECTIONS')
    a.close()
    await timeUntil(() => proxy.proxy.streams === 1, 'the closed stream to leave')
    expect((await stream(proxy, CLIENT)).status).toBe(200)
  })

  it('who may stream: no token 401, a frontend token 403, the scope of the token only', async () => {
    const { proxy } = await setUp()
    expect((await fetch(proxy.at('/api/client/streaming'))).status).toBe(401)
    expect((await fetch(proxy.at('/api/client/streaming'), { headers: { authorization: FRONTEND } })).status).toBe(403)
    expect((await fetch(proxy.at('/api/client/streaming'), { headers: { authorization: CLIENT_KEY } })).status).toBe(
      401,
    )
    const p1 = await stream(proxy, P1_CLIENT)
    expect(JSON.parse((await p1.next()).data).events[0].features.map((f: Feature) => f.name)).toEqual(['a-one'])
  })

  it('a token the upstream revokes: its stream ends at the next keep-alive', async () => {
    const { upstream, proxy } = await setUp({
      env: { STREAMING_KEEPALIVE_MS: '50', TOKEN_REVALIDATION_INTERVAL_SECONDS: '1' },
    })
    const opened = await stream(proxy, P1_CLIENT)
    await opened.next()
    upstream.setValidTokens([{ token: CLIENT, type: 'client', environment: 'development', projects: ['*'] }])
    const ended = await Promise.race([
      opened.ended.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 5_000)),
    ])
    expect(ended).toBe(true)
    expect((await fetch(proxy.at('/api/client/streaming'), { headers: { authorization: P1_CLIENT } })).status).toBe(401)
  })

  it('a revalidation that finds the token unchanged leaves its stream open', async () => {
    const { upstream, proxy } = await setUp({
      env: { STREAMING_KEEPALIVE_MS: '50', TOKEN_REVALIDATION_INTERVAL_SECONDS: '1' },
    })
    const opened = await stream(proxy, CLIENT)
    await opened.next()
    const validations = upstream.requestsTo('/edge/validate').length
    await timeUntil(() => upstream.requestsTo('/edge/validate').length >= validations + 2, 'two revalidations', {
      timeoutMs: 5_000,
    })
    const comments = opened.comments
    await timeUntil(() => opened.comments > comments + 2, 'keep-alives after the revalidations')
    expect(proxy.proxy.streams).toBe(1)
  })

  it('closing the proxy ends its streams at once', async () => {
    const { proxy } = await setUp()
    const opened = await stream(proxy, CLIENT)
    await opened.next()
    const started = performance.now()
    await proxy.proxy.close()
    await opened.ended
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(proxy.proxy.streams).toBe(0)
  })
})

describe('/api/client/delta on the proxy', () => {
  it('a hydration with an ETag naming the flags; 304 while they stay; a new hydration after a change', async () => {
    const { upstream, proxy } = await setUp()
    const get = (etag?: string) =>
      fetch(proxy.at('/api/client/delta'), {
        headers: { authorization: CLIENT, ...(etag ? { 'if-none-match': etag } : {}) },
      })
    const first = await get()
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    // The same name as /api/client/features gives the same flags.
    expect(etag).toBe(
      (await fetch(proxy.at('/api/client/features'), { headers: { authorization: CLIENT } })).headers.get('etag'),
    )
    const body = (await first.json()) as { events: Array<{ type: string; features: Feature[] }> }
    expect(body.events.map((e) => e.type)).toEqual(['hydration'])
    expect(body.events[0]!.features.map((f) => f.name)).toEqual(['a-one', 'b-two'])
    expect((await get(etag)).status).toBe(304)
    expect((await get('"303"')).status).toBe(200)
    upstream.setFeaturesFor(CLIENT, payload([flag('a-one', 'p1')]))
    await timeUntil(async () => (await get(etag)).status === 200, 'a new answer after the change')
  })
})

import { describe, expect, it } from 'vitest'
import { openStream } from '@vexil/test-fixtures/event-stream.ts'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { type TestProxy, useServers } from './helpers/proxy.js'

// Security review 2, finding 3: a client token is sent only the segments its features use, on
// /api/client/features, /api/client/delta and /api/client/streaming, as the service sends them
// (packages/service/src/store/client-features.ts). Another project's segment holds another
// project's data (its constraint values). The `project` and `namePrefix` filters narrow the
// segments too, as the service's query does.

const servers = useServers()

const ALL_CLIENT = '*:development.all-client-1'
const DEMO_CLIENT = 'demo:development.demo-client-2'

const segment = (id: number, name: string, values: string[]) => ({
  id,
  name,
  constraints: [{ contextName: 'userId', operator: 'IN', values }],
})
const flag = (name: string, project: string, segments?: number[]) => ({
  name,
  project,
  enabled: true,
  strategies: [{ name: 'default', ...(segments ? { segments } : {}) }],
})
const payload = (vipValues = ['ceo@acme.example', 'cfo@acme.example'], extra: object[] = []) => ({
  version: 2,
  features: [
    flag('secret-launch', 'default', [2]),
    flag('demo-pricing', 'demo', [1]),
    flag('demo-plain', 'demo'),
    ...extra,
  ],
  segments: [
    segment(1, 'demo-pro-plans', ['pro']),
    segment(2, 'vip-customers', vipValues),
    segment(3, 'unused', ['x']),
  ],
})

async function setUp(): Promise<{ upstream: FakeUpstream; proxy: TestProxy }> {
  const upstream = await servers.upstream(payload())
  upstream.setValidTokens([
    { token: ALL_CLIENT, type: 'client', environment: 'development', projects: ['*'] },
    { token: DEMO_CLIENT, type: 'client', environment: 'development', projects: ['demo'] },
  ])
  const proxy = await servers.proxy(upstream, { tokens: [ALL_CLIENT], refreshInterval: 50 })
  return { upstream, proxy }
}

const segmentNames = (body: { segments?: Array<{ name: string }> }) => (body.segments ?? []).map((s) => s.name)
const features = async (proxy: TestProxy, token: string, query = '') =>
  (await (await fetch(proxy.at(`/api/client/features${query}`), { headers: { authorization: token } })).json()) as {
    segments: Array<{ name: string }>
  }

describe('client API segments, as the service sends them', () => {
  it("/api/client/features: a project-scoped token gets only its projects' segments", async () => {
    const { proxy } = await setUp()
    expect(segmentNames(await features(proxy, DEMO_CLIENT))).toEqual(['demo-pro-plans'])
    expect(JSON.stringify(await features(proxy, DEMO_CLIENT))).not.toContain('ceo@acme.example')
  })

  it('an unused segment is sent to nobody; a `*` token gets every used one', async () => {
    const { proxy } = await setUp()
    expect(segmentNames(await features(proxy, ALL_CLIENT))).toEqual(['demo-pro-plans', 'vip-customers'])
  })

  it('the project and namePrefix filters narrow the segments to the features they select', async () => {
    const { proxy } = await setUp()
    expect(segmentNames(await features(proxy, ALL_CLIENT, '?project=default'))).toEqual(['vip-customers'])
    expect(segmentNames(await features(proxy, ALL_CLIENT, '?namePrefix=demo-plain'))).toEqual([])
  })

  it('/api/client/delta hydration', async () => {
    const { proxy } = await setUp()
    const res = await fetch(proxy.at('/api/client/delta'), { headers: { authorization: DEMO_CLIENT } })
    const hydration = ((await res.json()) as { events: Array<{ segments: Array<{ name: string }> }> }).events[0]!
    expect(segmentNames(hydration)).toEqual(['demo-pro-plans'])
  })

  it('/api/client/streaming: the hydration, and no segment-updated for a segment its features do not use', async () => {
    const { upstream, proxy } = await setUp()
    const stream = await openStream(proxy.at('/api/client/streaming'), { authorization: DEMO_CLIENT })
    servers.defer(() => stream.close())
    const connected = await stream.next()
    expect(
      segmentNames((JSON.parse(connected.data) as { events: Array<{ segments: Array<{ name: string }> }> }).events[0]!),
    ).toEqual(['demo-pro-plans'])
    // vip-customers changes (not the token's), then a demo flag changes: one message, without the segment.
    upstream.setFeatures(payload(['ceo@acme.example', 'cto@acme.example'], [flag('demo-new', 'demo')]))
    const updated = await stream.next(5_000)
    expect(updated.data).toContain('demo-new')
    expect(updated.data).not.toContain('vip-customers')
    expect(updated.data).not.toContain('cto@acme.example')
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EvaluationTrace } from '@vexil/engine'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { mayShareAnswer } from '../src/evaluation/shareable.js'
import { CLIENT_KEY, startTestProxy, startUpstreamWithTokens, type TestProxy } from './helpers/proxy.js'

// The one rule that decides whether one caller's answer may be served to another
// (evaluation/shareable.ts), and the same behaviour on every protocol that caches: a repeated
// request is answered from the cache; an answer that used randomness, a custom strategy or an
// enricher never is. Real listening proxies against a fake upstream; hits and misses read from
// the Prometheus counter.

const trace = (over: Partial<EvaluationTrace> = {}): EvaluationTrace => ({ usedRandom: false, usedClock: false, usedCustomStrategy: false, ...over })

describe('mayShareAnswer', () => {
  it.each<[string, Parameters<typeof mayShareAnswer>[0], boolean]>([
    ['an answer that depended on the request alone', { trace: trace(), sessionInjected: false, enriched: false }, true],
    ['one that read the clock (shared until its validUntil)', { trace: trace({ usedClock: true }), sessionInjected: false, enriched: false }, true],
    ['one that used randomness', { trace: trace({ usedRandom: true }), sessionInjected: false, enriched: false }, false],
    ['one that ran a custom strategy', { trace: trace({ usedCustomStrategy: true }), sessionInjected: false, enriched: false }, false],
    ['one evaluated with a sessionId the proxy made up', { trace: trace(), sessionInjected: true, enriched: false }, false],
    ['one whose context an enricher changed', { trace: trace(), sessionInjected: false, enriched: true }, false],
  ])('%s: %s', (_, inputs, shared) => {
    expect(mayShareAnswer(inputs)).toBe(shared)
  })
})

const CLIENT = '*:development.sharing-client-1'
const FRONTEND = '*:development.sharing-front-1'
const FIXED = { name: 'fixed', enabled: true, strategies: [{ name: 'default' }] }
const COIN = { name: 'coin', enabled: true, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'random', groupId: 'coin' } }] }
const CUSTOM = { name: 'custom', enabled: true, strategies: [{ name: 'isFriday', parameters: {} }] }
const payload = (...features: unknown[]) => ({ version: 2, features, segments: [] })

/** A request on one protocol with a context that names a sessionId; `flag` is the single-flag route's flag. */
type Protocol = { name: string; byToken: boolean; send: (proxy: TestProxy, flag: string) => Promise<number> }
const post = (proxy: TestProxy, path: string, credential: string, body: unknown) =>
  fetch(proxy.at(path), { method: 'POST', headers: { authorization: credential, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (res) => (await res.text(), res.status))
const get = (proxy: TestProxy, path: string, credential: string) => fetch(proxy.at(path), { headers: { authorization: credential } }).then(async (res) => (await res.text(), res.status))
const CONTEXT = { userId: 'u1', sessionId: 's1' }
const PROTOCOLS: Protocol[] = [
  { name: 'GET /proxy', byToken: false, send: (proxy) => get(proxy, '/proxy?userId=u1&sessionId=s1', CLIENT_KEY) },
  { name: 'POST /proxy', byToken: false, send: (proxy) => post(proxy, '/proxy', CLIENT_KEY, { context: CONTEXT }) },
  { name: 'GET /api/frontend', byToken: true, send: (proxy) => get(proxy, '/api/frontend?userId=u1&sessionId=s1', FRONTEND) },
  { name: 'POST /api/frontend', byToken: true, send: (proxy) => post(proxy, '/api/frontend', FRONTEND, { context: CONTEXT }) },
  { name: 'POST /api/frontend/features/<name>', byToken: true, send: (proxy, flag) => post(proxy, `/api/frontend/features/${flag}`, FRONTEND, { context: CONTEXT }) },
  { name: 'OFREP bulk, frontend token', byToken: true, send: (proxy) => post(proxy, '/ofrep/v1/evaluate/flags', FRONTEND, { context: { targetingKey: 'u1', sessionId: 's1' } }) },
  { name: 'OFREP bulk, client key', byToken: false, send: (proxy) => post(proxy, '/ofrep/v1/evaluate/flags', CLIENT_KEY, { context: { targetingKey: 'u1', sessionId: 's1' } }) },
]

const upstreams: FakeUpstream[] = []
const proxies: Record<'plain' | 'random' | 'custom' | 'enriched', TestProxy> = {} as never
beforeAll(async () => {
  const start = async (features: unknown, extra: object = {}) => {
    const upstream = await startUpstreamWithTokens(features, { client: CLIENT, frontend: FRONTEND })
    upstreams.push(upstream)
    return startTestProxy(upstream.url, { tokens: [CLIENT], customStrategies: [{ name: 'isFriday', isEnabled: () => true }], ...extra })
  }
  proxies.plain = await start(payload(FIXED))
  proxies.random = await start(payload(FIXED, COIN))
  proxies.custom = await start(payload(FIXED, CUSTOM))
  proxies.enriched = await start(payload(FIXED), { expCustomEnrichers: [(context: Record<string, unknown>) => ({ ...context, region: 'enriched' })] })
})
afterAll(async () => {
  for (const proxy of Object.values(proxies)) await proxy.close()
  for (const upstream of upstreams) await upstream.close()
})

async function hits(proxy: TestProxy): Promise<number> {
  const text = await (await fetch(proxy.at('/proxy/internal-backstage/prometheus'))).text()
  return Number(/vexil_proxy_response_cache_total\{result="hit"\} (\d+)/.exec(text)?.[1] ?? 0)
}

/** Cache hits among four identical requests. */
async function hitsOfFour(proxy: TestProxy, protocol: Protocol, flag: string): Promise<number> {
  const before = await hits(proxy)
  for (let i = 0; i < 4; i++) expect(await protocol.send(proxy, flag), protocol.name).toBe(200)
  return (await hits(proxy)) - before
}

describe.each(PROTOCOLS)('$name', (protocol) => {
  it('a repeated request is answered from the cache (admitted on its second sight)', async () => {
    expect(await hitsOfFour(proxies.plain, protocol, 'fixed')).toBe(2)
  })

  it('an answer that used randomness is never served to another request', async () => {
    expect(await hitsOfFour(proxies.random, protocol, 'coin')).toBe(0)
  })

  it('an answer that ran a custom strategy is never served to another request', async () => {
    expect(await hitsOfFour(proxies.custom, protocol, 'custom')).toBe(0)
  })

  it(protocol.byToken ? 'enrichers do not run for token callers: their answers are shared' : 'an answer from a proxy with enrichers is never served to another request', async () => {
    expect(await hitsOfFour(proxies.enriched, protocol, 'fixed')).toBe(protocol.byToken ? 2 : 0)
  })
})

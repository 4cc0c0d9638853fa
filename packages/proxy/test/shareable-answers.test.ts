import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EvaluationTrace } from '@vexil/engine'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { mayShareAnswer } from '../src/answers/shareable.js'
import { CLIENT_KEY, startTestProxy, startUpstreamWithTokens, type TestProxy } from './helpers/proxy.js'

// The one rule that decides whether one caller's answer may be served to another
// (answers/shareable.ts), and the same behaviour on every protocol that caches: a repeated
// request is answered from the cache; an answer that used randomness, a custom strategy or an
// enricher never is; a throwing strategy; If-None-Match; keys that never collide across protocols.
// Real listening proxies against a fake upstream; hits and misses read from
// the Prometheus counter.

const trace = (over: Partial<EvaluationTrace> = {}): EvaluationTrace => ({
  usedRandom: false,
  usedClock: false,
  usedCustomStrategy: false,
  ...over,
})

describe('mayShareAnswer', () => {
  it.each<[string, Parameters<typeof mayShareAnswer>[0], boolean]>([
    ['an answer that depended on the request alone', { trace: trace(), sessionInjected: false, enriched: false }, true],
    [
      'one that read the clock (shared until its validUntil)',
      { trace: trace({ usedClock: true }), sessionInjected: false, enriched: false },
      true,
    ],
    [
      'one that used randomness',
      { trace: trace({ usedRandom: true }), sessionInjected: false, enriched: false },
      false,
    ],
    [
      'one that ran a custom strategy',
      { trace: trace({ usedCustomStrategy: true }), sessionInjected: false, enriched: false },
      false,
    ],
    [
      'one evaluated with a sessionId the proxy made up',
      { trace: trace(), sessionInjected: true, enriched: false },
      false,
    ],
    ['one whose context an enricher changed', { trace: trace(), sessionInjected: false, enriched: true }, false],
  ])('%s: %s', (_, inputs, shared) => {
    expect(mayShareAnswer(inputs)).toBe(shared)
  })
})

const CLIENT = '*:development.sharing-client-1'
const FRONTEND = '*:development.sharing-front-1'
const FIXED = { name: 'fixed', enabled: true, strategies: [{ name: 'default' }] }
const COIN = {
  name: 'coin',
  enabled: true,
  strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'random', groupId: 'coin' } }],
}
const CUSTOM = { name: 'custom', enabled: true, strategies: [{ name: 'isFriday', parameters: {} }] }
const THROWING = { name: 'throwing', enabled: true, strategies: [{ name: 'throws', parameters: {} }] }
const payload = (...features: unknown[]) => ({ version: 2, features, segments: [] })

/**
 * A request on one protocol with a context that names a sessionId; `flag` is the single-flag
 * route's flag, `headers` extra request headers. `revalidates`: a matching If-None-Match is
 * answered 304; `strategyErrorIs500`: a strategy that throws makes the request's answer a 500 (OFREP
 * answers it in the flag's item instead).
 */
type Send = (proxy: TestProxy, flag: string, headers?: Record<string, string>) => Promise<Response>
type Protocol = {
  name: string
  byToken: boolean
  revalidates: boolean
  strategyErrorIs500: boolean
  request: Send
  send: (proxy: TestProxy, flag: string) => Promise<number>
}
const post = (
  proxy: TestProxy,
  path: string,
  credential: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(proxy.at(path), {
    method: 'POST',
    headers: { authorization: credential, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
const get = (proxy: TestProxy, path: string, credential: string, headers: Record<string, string> = {}) =>
  fetch(proxy.at(path), { headers: { authorization: credential, ...headers } })
const CONTEXT = { userId: 'u1', sessionId: 's1' }
const status = (response: Promise<Response>) => response.then(async (res) => (await res.text(), res.status))
const protocol = (
  name: string,
  byToken: boolean,
  revalidates: boolean,
  strategyErrorIs500: boolean,
  request: Send,
): Protocol => ({
  name,
  byToken,
  revalidates,
  strategyErrorIs500,
  request,
  send: (proxy, flag) => status(request(proxy, flag)),
})
const PROTOCOLS: Protocol[] = [
  protocol('GET /proxy', false, true, true, (proxy, _, headers) =>
    get(proxy, '/proxy?userId=u1&sessionId=s1', CLIENT_KEY, headers),
  ),
  protocol('POST /proxy', false, false, true, (proxy, _, headers) =>
    post(proxy, '/proxy', CLIENT_KEY, { context: CONTEXT }, headers),
  ),
  protocol('GET /api/frontend', true, true, true, (proxy, _, headers) =>
    get(proxy, '/api/frontend?userId=u1&sessionId=s1', FRONTEND, headers),
  ),
  protocol('POST /api/frontend', true, false, true, (proxy, _, headers) =>
    post(proxy, '/api/frontend', FRONTEND, { context: CONTEXT }, headers),
  ),
  protocol('POST /api/frontend/features/<name>', true, false, true, (proxy, flag, headers) =>
    post(proxy, `/api/frontend/features/${flag}`, FRONTEND, { context: CONTEXT }, headers),
  ),
  protocol('OFREP bulk, frontend token', true, true, false, (proxy, _, headers) =>
    post(proxy, '/ofrep/v1/evaluate/flags', FRONTEND, { context: { targetingKey: 'u1', sessionId: 's1' } }, headers),
  ),
  protocol('OFREP bulk, client key', false, true, false, (proxy, _, headers) =>
    post(proxy, '/ofrep/v1/evaluate/flags', CLIENT_KEY, { context: { targetingKey: 'u1', sessionId: 's1' } }, headers),
  ),
]

const upstreams: FakeUpstream[] = []
const proxies: Record<'plain' | 'random' | 'custom' | 'throwing' | 'enriched', TestProxy> = {} as never
beforeAll(async () => {
  const start = async (features: unknown, extra: object = {}) => {
    const upstream = await startUpstreamWithTokens(features, { client: CLIENT, frontend: FRONTEND })
    upstreams.push(upstream)
    const throwing = () => {
      throw new Error('the strategy failed')
    }
    return startTestProxy(upstream.url, {
      tokens: [CLIENT],
      customStrategies: [
        { name: 'isFriday', isEnabled: () => true },
        { name: 'throws', isEnabled: throwing },
      ],
      ...extra,
    })
  }
  proxies.plain = await start(payload(FIXED))
  proxies.random = await start(payload(FIXED, COIN))
  proxies.custom = await start(payload(FIXED, CUSTOM))
  proxies.throwing = await start(payload(FIXED, THROWING))
  proxies.enriched = await start(payload(FIXED), {
    expCustomEnrichers: [(context: Record<string, unknown>) => ({ ...context, region: 'enriched' })],
  })
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

  it(
    protocol.byToken
      ? 'enrichers do not run for token callers: their answers are shared'
      : 'an answer from a proxy with enrichers is never served to another request',
    async () => {
      expect(await hitsOfFour(proxies.enriched, protocol, 'fixed')).toBe(protocol.byToken ? 2 : 0)
    },
  )

  it(
    protocol.strategyErrorIs500
      ? 'a strategy that throws is a 500, never kept'
      : "a strategy that throws is the flag's evaluation failure, never kept",
    async () => {
      const proxy = proxies.throwing
      const before = await hits(proxy)
      for (let i = 0; i < 3; i++)
        expect(await protocol.send(proxy, 'throwing'), protocol.name).toBe(protocol.strategyErrorIs500 ? 500 : 200)
      expect((await hits(proxy)) - before).toBe(0)
    },
  )

  it(
    protocol.revalidates
      ? 'answers 304 to the ETag of its answer'
      : 'answers 200 whatever If-None-Match says (a POST is not revalidated)',
    async () => {
      const first = await protocol.request(proxies.plain, 'fixed')
      await first.text()
      const etag = first.headers.get('etag')!
      expect(etag).toBeTruthy()
      const again = await protocol.request(proxies.plain, 'fixed', { 'if-none-match': etag })
      expect(await again.text()).toBe(
        protocol.revalidates ? '' : await (await protocol.request(proxies.plain, 'fixed')).text(),
      )
      expect(again.status).toBe(protocol.revalidates ? 304 : 200)
    },
  )
})

describe('every protocol together', () => {
  it('no answer kept for one protocol is served on another (their cache keys never collide)', async () => {
    const upstream = await startUpstreamWithTokens(payload(FIXED), { client: CLIENT, frontend: FRONTEND })
    upstreams.push(upstream)
    const proxy = await startTestProxy(upstream.url, { tokens: [CLIENT] })
    try {
      // Each protocol's request twice (its answer admitted on the second), every protocol in turn.
      for (const protocol of PROTOCOLS)
        for (let i = 0; i < 2; i++) expect(await protocol.send(proxy, 'fixed'), protocol.name).toBe(200)
      expect(await hits(proxy)).toBe(0)
    } finally {
      await proxy.close()
    }
  })
})

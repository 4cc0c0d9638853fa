import { describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { openStream } from '@vexil/test-fixtures/event-stream.ts'
import { timeUntil } from '@vexil/test-fixtures/wait-for.ts'
import { type TestProxy, useServers } from './helpers/proxy.js'

// Security review 2, finding 4: revoking the client token a scope's sync fetches with never
// freezes the scope. The sync moves to another client token of the scope, or the scope stops
// being served (503, not ready); a kill switch turned on upstream reaches the scope's other
// tokens within a bound. A real listening proxy polling a fake upstream every 100 ms; tokens are
// validated again every second (the shortest TOKEN_REVALIDATION_INTERVAL the refresh gives).

const servers = useServers()

const SYNC_CLIENT = '*:production.sync-client-1'
const OTHER_CLIENT = '*:production.other-client-2'
const LATE_CLIENT = '*:production.late-client-3'
const FRONTEND = '*:production.front-1'
const P1_CLIENT = 'p1:production.p1-client-4'

const client = (token: string, projects = ['*']) => ({
  token,
  type: 'client' as const,
  environment: 'production',
  projects,
})
const flags = (on: boolean) => ({
  version: 2,
  features: [{ name: 'kill-switch-test', project: 'p1', enabled: on, strategies: [{ name: 'default' }] }],
  segments: [],
})

async function setUp(): Promise<{ upstream: FakeUpstream; proxy: TestProxy }> {
  const upstream = await servers.upstream(flags(true))
  upstream.setValidTokens([
    client(SYNC_CLIENT),
    client(OTHER_CLIENT),
    client(P1_CLIENT, ['p1']),
    { token: FRONTEND, type: 'frontend', environment: 'production', projects: ['*'] },
  ])
  const proxy = await servers.proxy(upstream, {
    tokens: [SYNC_CLIENT],
    refreshInterval: 100,
    streamingKeepAliveMs: 200,
  })
  return { upstream, proxy }
}

const frontendNames = async (proxy: TestProxy) => {
  const res = await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: FRONTEND } })
  return res.status === 200
    ? ((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)
    : res.status
}
const clientEnabled = async (proxy: TestProxy, token: string) => {
  const res = await fetch(proxy.at('/api/client/features'), { headers: { authorization: token } })
  return res.status === 200
    ? ((await res.json()) as { features: Array<{ enabled: boolean }> }).features[0]?.enabled
    : res.status
}

/** Revokes the sync's token upstream, turns the flag off, and returns the ms until every other token sees it off. */
async function killSwitchDelay(
  upstream: FakeUpstream,
  proxy: TestProxy,
  revoke: { validate: boolean },
): Promise<number> {
  if (revoke.validate)
    upstream.setValidTokens([
      client(OTHER_CLIENT),
      client(P1_CLIENT, ['p1']),
      { token: FRONTEND, type: 'frontend', environment: 'production', projects: ['*'] },
    ])
  upstream.failFor(SYNC_CLIENT, { status: 401 })
  upstream.setFeatures(flags(false))
  const since = performance.now()
  const ms = await timeUntil(
    async () =>
      (await frontendNames(proxy)).toString() === '' &&
      (await clientEnabled(proxy, OTHER_CLIENT)) === false &&
      (await clientEnabled(proxy, P1_CLIENT)) === false,
    'the kill switch to reach the other tokens',
    { since, timeoutMs: 10_000, everyMs: 20 },
  )
  console.info(
    `kill switch after revoking the sync's token (${revoke.validate ? 'revoked upstream' : 'fetch refused only'}): ${Math.round(ms)} ms`,
  )
  return ms
}

describe("a scope's sync token revoked", () => {
  it('revoked upstream: the sync moves to another client token of the scope; the kill switch arrives within two revalidation intervals', async () => {
    const { upstream, proxy } = await setUp()
    expect(await frontendNames(proxy)).toEqual(['kill-switch-test'])
    expect(await clientEnabled(proxy, OTHER_CLIENT)).toBe(true)
    expect(await clientEnabled(proxy, P1_CLIENT)).toBe(true)
    expect(await killSwitchDelay(upstream, proxy, { validate: true })).toBeLessThan(2_000)
    expect(proxy.logs.join('\n')).toContain('they are fetched with another token of that scope')
    expect((await fetch(proxy.at('/internal-backstage/ready'))).status).toBe(200)
  })

  it("the upstream refuses the sync's fetch (401) while still listing its token: the same", async () => {
    const { upstream, proxy } = await setUp()
    expect(await clientEnabled(proxy, OTHER_CLIENT)).toBe(true)
    expect(await clientEnabled(proxy, P1_CLIENT)).toBe(true)
    expect(await killSwitchDelay(upstream, proxy, { validate: false })).toBeLessThan(2_000)
  })

  it('no other client token covers the scope: it is no longer served (503, not ready) until one is known', async () => {
    const { upstream, proxy } = await setUp()
    expect(await frontendNames(proxy)).toEqual(['kill-switch-test'])
    // A streaming SDK of the scope whose token the upstream still lists but will not fetch with:
    // no sync serves the scope, and its stream must not go silent on the last flags.
    const stream = await openStream(proxy.at('/api/client/streaming'), { authorization: P1_CLIENT })
    expect((await stream.next()).event).toBe('unleash-connected')
    upstream.setValidTokens([
      client(P1_CLIENT, ['p1']),
      { token: FRONTEND, type: 'frontend', environment: 'production', projects: ['*'] },
    ])
    upstream.failFor(P1_CLIENT, { status: 401 })
    upstream.failFor(SYNC_CLIENT, { status: 401 })
    const ms = await timeUntil(async () => (await frontendNames(proxy)) === 503, 'the scope to stop being served', {
      timeoutMs: 10_000,
      everyMs: 20,
    })
    console.info(`scope withdrawn after revoking its only client token: ${Math.round(ms)} ms`)
    expect(ms).toBeLessThan(2_000)
    // The stream ends within a keep-alive interval; its SDK reconnects and is answered 503 until the scope is served again.
    await Promise.race([
      stream.ended,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the stream of an unserved scope stayed open')), 3_000),
      ),
    ])
    expect((await fetch(proxy.at('/api/client/streaming'), { headers: { authorization: P1_CLIENT } })).status).toBe(503)
    await timeUntil(async () => (await fetch(proxy.at('/internal-backstage/ready'))).status === 503, 'not ready', {
      timeoutMs: 3_000,
    })
    expect(proxy.logs.join('\n')).toContain('No valid client token can fetch the flags of environment "production"')
    // A new client token of the scope: served again, with the upstream's current flags.
    upstream.setFeatures(flags(false))
    upstream.setValidTokens([
      client(LATE_CLIENT),
      { token: FRONTEND, type: 'frontend', environment: 'production', projects: ['*'] },
    ])
    await timeUntil(async () => (await clientEnabled(proxy, LATE_CLIENT)) === false, 'the new token to be served', {
      timeoutMs: 5_000,
    })
    expect(await frontendNames(proxy)).toEqual([])
    await timeUntil(async () => (await fetch(proxy.at('/internal-backstage/ready'))).status === 200, 'ready again', {
      timeoutMs: 3_000,
    })
  })
})

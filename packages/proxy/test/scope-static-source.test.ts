import { describe, expect, it } from 'vitest'
import { useServers } from './helpers/proxy.js'

// Security review 2, finding 2: which token callers SERVICE_API_TOKEN's flags (the static scope)
// may serve is the upstream's answer about that token (POST /edge/validate), never its text.
// Environment names may contain dots: `*:production.eu.<secret>` is a token of `production.eu`.

const servers = useServers()

const EU_STATIC = '*:production.eu.static-secret-1'
const PROD_FRONTEND = '*:production.prod-front-1'
const EU_FRONTEND = '*:production.eu.eu-front-1'
const DEV_STATIC = '*:development.static-secret-2'
const DEV_FRONTEND = '*:development.dev-front-1'
const STAGING_FRONTEND = '*:staging.staging-front-1'

const EU_FLAGS = {
  version: 2,
  features: [{ name: 'eu-only-flag', project: 'default', enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
}
const frontend = (token: string, environment: string) => ({
  token,
  type: 'frontend' as const,
  environment,
  projects: ['*'],
})
const names = async (res: Response) =>
  ((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)

describe('the static scope serves token callers only in the scope the upstream gives its token', () => {
  it('a dotted environment: production tokens never get production.eu flags', async () => {
    const upstream = await servers.upstream(EU_FLAGS)
    upstream.setValidTokens([
      { token: EU_STATIC, type: 'client', environment: 'production.eu', projects: ['*'] },
      frontend(PROD_FRONTEND, 'production'),
      frontend(EU_FRONTEND, 'production.eu'),
    ])
    const proxy = await servers.proxy(upstream, { serviceApiToken: EU_STATIC, refreshInterval: 100 })
    const prod = await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: PROD_FRONTEND } })
    expect(prod.status).toBe(503)
    expect(await prod.text()).not.toContain('eu-only-flag')
    const eu = await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: EU_FRONTEND } })
    expect(eu.status).toBe(200)
    expect(await names(eu)).toEqual(['eu-only-flag'])
  })

  it("the text is ignored: a token the upstream says is staging's serves staging's tokens", async () => {
    const upstream = await servers.upstream(EU_FLAGS)
    upstream.setValidTokens([
      { token: EU_STATIC, type: 'client', environment: 'staging', projects: ['*'] },
      frontend(STAGING_FRONTEND, 'staging'),
      frontend(EU_FRONTEND, 'production.eu'),
    ])
    const proxy = await servers.proxy(upstream, { serviceApiToken: EU_STATIC, refreshInterval: 100 })
    expect(
      (await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: STAGING_FRONTEND } })).status,
    ).toBe(200)
    expect((await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: EU_FRONTEND } })).status).toBe(
      503,
    )
  })

  it('unvalidated (the upstream does not list it): token callers are not served from it; /proxy still is', async () => {
    const upstream = await servers.upstream(EU_FLAGS)
    upstream.setValidTokens([frontend(DEV_FRONTEND, 'development')])
    const proxy = await servers.proxy(upstream, { serviceApiToken: DEV_STATIC, refreshInterval: 100 })
    expect((await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: DEV_FRONTEND } })).status).toBe(
      503,
    )
    const old = await fetch(proxy.at('/proxy?userId=1'), { headers: { authorization: 'client-key-123' } })
    expect(old.status).toBe(200)
    expect(await names(old)).toEqual(['eu-only-flag'])
  })

  it('the upstream down at start: not served from the static scope until the upstream validates its token', async () => {
    const upstream = await servers.upstream(EU_FLAGS)
    upstream.setValidTokens([
      { token: EU_STATIC, type: 'client', environment: 'production.eu', projects: ['*'] },
      frontend(EU_FRONTEND, 'production.eu'),
    ])
    upstream.fail({ status: 503 }, '/edge/validate')
    const proxy = await servers.proxy(upstream, { serviceApiToken: EU_STATIC, refreshInterval: 100 })
    expect((await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: EU_FRONTEND } })).status).toBe(
      503,
    )
    upstream.fail(undefined, '/edge/validate')
    const deadline = Date.now() + 5_000
    let status = 0
    while (Date.now() < deadline && status !== 200) {
      status = (await fetch(proxy.at('/api/frontend?userId=1'), { headers: { authorization: EU_FRONTEND } })).status
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe(200)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { UNLEASH_FRONTEND_PREFLIGHT_HEADERS } from '@vexil/test-fixtures/unleash-server.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'

// The Unleash API routes of a proxy serving several environments by token (issue 16): the
// frontend API answered as Unleash 8.2's own, the server-SDK API per token scope, Edge's
// operational routes, tokens learned from the upstream's POST /edge/validate. A real listening
// proxy against a fake upstream that answers /client/features per client token.

const DEV_CLIENT = '*:development.dev-client-1'
const PROD_CLIENT = '*:production.prod-client-1'
const DEV_FRONTEND = '*:development.dev-front-1'
const PROD_FRONTEND = '*:production.prod-front-1'
const P1_FRONTEND = 'p1:development.p1-front-1'
const P2_PROD_CLIENT = 'p2:production.p2-client-1'
const STAGING_CLIENT = '*:staging.staging-client-1'
const STAGING_FRONTEND = '*:staging.staging-front-1'
const QA_FRONTEND = '*:qa.qa-front-1'

const token = (secret: string, type: 'client' | 'frontend', environment: string, projects = ['*']) => ({
  token: secret,
  type,
  environment,
  projects,
})

const DEV = {
  version: 2,
  features: [
    {
      name: 'zeta',
      project: 'p1',
      enabled: true,
      impressionData: true,
      strategies: [{ name: 'default' }],
      variants: [
        {
          name: 'blue',
          weight: 1000,
          stickiness: 'default',
          weightType: 'variable',
          payload: { type: 'json', value: '{"k":1}' },
        },
      ],
    },
    { name: 'alpha', project: 'p2', enabled: true, strategies: [{ name: 'default' }] },
    { name: 'off', project: 'p1', enabled: false, strategies: [{ name: 'default' }] },
    {
      name: 'only-in-production-context',
      project: 'p1',
      enabled: true,
      strategies: [
        { name: 'default', constraints: [{ contextName: 'environment', operator: 'IN', values: ['production'] }] },
      ],
    },
    {
      name: 'for-user-7',
      project: 'p2',
      enabled: true,
      strategies: [{ name: 'userWithId', parameters: { userIds: '7' } }],
    },
  ],
  segments: [],
}
const PROD = {
  version: 2,
  features: [{ name: 'prod-only', project: 'p2', enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
}
const STAGING = {
  version: 2,
  features: [{ name: 'staging-only', project: 'default', enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
}

let upstream: FakeUpstream
let proxy: TestProxy

beforeAll(async () => {
  upstream = await startFakeUpstream({
    version: 2,
    features: [{ name: 'static', enabled: true, strategies: [{ name: 'default' }] }],
  })
  upstream.setFeaturesFor(DEV_CLIENT, DEV)
  upstream.setFeaturesFor(PROD_CLIENT, PROD)
  upstream.setFeaturesFor(STAGING_CLIENT, STAGING)
  upstream.setValidTokens([
    token(DEV_CLIENT, 'client', 'development'),
    token(PROD_CLIENT, 'client', 'production'),
    token(DEV_FRONTEND, 'frontend', 'development'),
    token(PROD_FRONTEND, 'frontend', 'production'),
    token(P1_FRONTEND, 'frontend', 'development', ['p1']),
    token(P2_PROD_CLIENT, 'client', 'production', ['p2']),
    token(STAGING_CLIENT, 'client', 'staging'),
    token(STAGING_FRONTEND, 'frontend', 'staging'),
    token(QA_FRONTEND, 'frontend', 'qa'),
  ])
  proxy = await startTestProxy(upstream.url, {
    tokens: [DEV_CLIENT, PROD_CLIENT],
    refreshInterval: 1_000,
    metricsInterval: 300,
  })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const get = (path: string, secret?: string, headers: Record<string, string> = {}) =>
  fetch(proxy.at(path), { headers: { ...(secret ? { authorization: secret } : {}), ...headers } })
const post = (path: string, secret: string | undefined, body: unknown) =>
  fetch(proxy.at(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret ? { authorization: secret } : {}) },
    body: JSON.stringify(body),
  })
const names = async (res: Response) =>
  ((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)

describe('frontend API (/api/frontend), as Unleash 8.2 answers it', () => {
  it('answers enabled toggles of the token environment, in definition order, in Unleash 8.2 shape and headers', async () => {
    const res = await get('/api/frontend?userId=1&sessionId=s', DEV_FRONTEND)
    expect(res.status).toBe(200)
    expect(await res.clone().text()).toBe(
      '{"toggles":[' +
        // A flag-level variant: payload before enabled, as Unleash's SDK builds it.
        '{"name":"zeta","enabled":true,"variant":{"name":"blue","payload":{"type":"json","value":"{\\"k\\":1}"},"enabled":true,"feature_enabled":true,"featureEnabled":true},"impressionData":true},' +
        '{"name":"alpha","enabled":true,"variant":{"name":"disabled","enabled":false,"feature_enabled":true,"featureEnabled":true},"impressionData":false}' +
        ']}',
    )
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/)
    expect(res.headers.get('vary')).toBe('Origin, Accept-Encoding')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag')
  })

  it('two environments on one proxy at once: each frontend token sees its own flags', async () => {
    const [dev, prod] = await Promise.all([
      get('/api/frontend?userId=1', DEV_FRONTEND),
      get('/api/frontend?userId=1', PROD_FRONTEND),
    ])
    expect(await names(dev)).toEqual(['zeta', 'alpha'])
    expect(await names(prod)).toEqual(['prod-only'])
  })

  it('a project-scoped frontend token sees its projects only', async () => {
    expect(await names(await get('/api/frontend?userId=1', P1_FRONTEND))).toEqual(['zeta'])
  })

  it('the flags are the token environment\'s; a context\'s environment is only a value for constraints (default "default"), as Unleash 8.2', async () => {
    expect(await names(await get('/api/frontend?userId=1', DEV_FRONTEND))).not.toContain('only-in-production-context')
    const claimed = await names(await get('/api/frontend?userId=1&environment=production', DEV_FRONTEND))
    expect(claimed).toContain('only-in-production-context')
    expect(claimed).not.toContain('prod-only')
    expect(
      await names(await post('/api/frontend', DEV_FRONTEND, { context: { environment: 'production' } })),
    ).not.toContain('prod-only')
  })

  it('POST reads { context } and, as Edge, a flat context; GET and POST give the same bytes and ETag', async () => {
    const viaGet = await get('/api/frontend?userId=7&sessionId=s', DEV_FRONTEND)
    const viaPost = await post('/api/frontend', DEV_FRONTEND, { context: { userId: '7', sessionId: 's' } })
    const flat = await post('/api/frontend', DEV_FRONTEND, { userId: 7, sessionId: 's' })
    const body = await viaGet.text()
    expect(body).toContain('"for-user-7"')
    expect(await viaPost.text()).toBe(body)
    expect(await flat.text()).toBe(body)
    expect(viaPost.headers.get('etag')).toBe(viaGet.headers.get('etag'))
  })

  it('304 for a GET with a matching If-None-Match (weak comparison), never for a POST', async () => {
    const first = await get('/api/frontend?userId=1&sessionId=s', DEV_FRONTEND)
    const etag = first.headers.get('etag')!
    const again = await get('/api/frontend?userId=1&sessionId=s', DEV_FRONTEND, {
      'if-none-match': etag.replace(/^W\//, ''),
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('cache-control')).toBe('no-cache')
    const viaPost = await fetch(proxy.at('/api/frontend'), {
      method: 'POST',
      headers: { authorization: DEV_FRONTEND, 'content-type': 'application/json', 'if-none-match': etag },
      body: '{"context":{"userId":"1","sessionId":"s"}}',
    })
    expect(viaPost.status).toBe(200)
  })

  it('Bearer tokens work; the /api/proxy alias answers the same', async () => {
    const plain = await (await get('/api/frontend?userId=1&sessionId=s', DEV_FRONTEND)).text()
    expect(await (await get('/api/frontend?userId=1&sessionId=s', `Bearer ${DEV_FRONTEND}`)).text()).toBe(plain)
    expect(await (await get('/api/proxy?userId=1&sessionId=s', DEV_FRONTEND)).text()).toBe(plain)
  })

  it('/all adds the disabled toggles; /features/<name> is one toggle (404 for an unknown or out-of-scope name)', async () => {
    expect(await names(await get('/api/frontend/all?userId=1', DEV_FRONTEND))).toEqual([
      'zeta',
      'alpha',
      'off',
      'only-in-production-context',
      'for-user-7',
    ])
    const one = await get('/api/frontend/features/off?userId=1', DEV_FRONTEND)
    expect(one.status).toBe(200)
    expect(await one.json()).toEqual({
      name: 'off',
      enabled: false,
      variant: { name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false },
      impressionData: false,
    })
    expect((await get('/api/frontend/features/nope', DEV_FRONTEND)).status).toBe(404)
    expect((await get('/api/frontend/features/alpha', P1_FRONTEND)).status).toBe(404)
  })

  it('refuses as Unleash 8.2: 401 JSON without a valid token, 403 JSON for the wrong type', async () => {
    const missing = await get('/api/frontend')
    expect(missing.status).toBe(401)
    expect(await missing.json()).toEqual({
      message:
        'This endpoint requires an API token. Please add an authorization header to your request with a valid token',
    })
    expect(missing.headers.get('access-control-allow-origin')).toBe('*')
    expect((await get('/api/frontend', '*:development.unknown')).status).toBe(401)
    expect((await get('/api/frontend', 'garbage')).status).toBe(401)
    const wrongType = await get('/api/frontend', DEV_CLIENT)
    expect(wrongType.status).toBe(403)
    expect(await wrongType.json()).toEqual({
      message: 'invalid token: expected a different token type for this endpoint',
    })
    expect((await get('/api/client/features', DEV_FRONTEND)).status).toBe(403)
    expect((await get('/proxy', DEV_FRONTEND)).status).toBe(401)
  })

  it('a frontend token whose environment no client token can fetch: 503 saying what to configure', async () => {
    const res = await get('/api/frontend', QA_FRONTEND)
    expect(res.status).toBe(503)
    expect(((await res.json()) as { message: string }).message).toMatch(/no client token.*"qa".*TOKENS/)
  })

  it("a preflight answers 204 with Unleash 8.2's CORS headers", async () => {
    const res = await fetch(proxy.at('/api/frontend'), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    })
    expect(res.status).toBe(204)
    const cors: Record<string, string> = {}
    res.headers.forEach((value, name) => {
      if (name.startsWith('access-control') || name === 'vary') cors[name] = value
    })
    expect(cors).toEqual(UNLEASH_FRONTEND_PREFLIGHT_HEADERS)
  })

  it("frontend metrics answer 200 OK and reach the upstream with the scope's client token", async () => {
    const res = await post('/api/frontend/client/metrics', PROD_FRONTEND, {
      appName: 'web',
      instanceId: 'browser',
      bucket: {
        start: new Date().toISOString(),
        stop: new Date().toISOString(),
        toggles: { 'prod-only': { yes: 3, no: 1, variants: {} } },
      },
    })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('OK')
    await upstream.waitFor((requests) =>
      requests.some((r) => r.path === '/client/metrics' && r.body.includes('"prod-only"')),
    )
    const sent = upstream.requestsTo('/client/metrics').find((r) => r.body.includes('"prod-only"'))!
    expect(sent.headers.authorization).toBe(PROD_CLIENT)
    expect(JSON.parse(sent.body).bucket.toggles['prod-only']).toMatchObject({ yes: 3, no: 1 })
  })

  it('frontend registrations and metrics take an instance id that is not text without a 500', async () => {
    // Found by http-fuzz.test.ts: String() of an array holding an object whose toString is null throws.
    for (const instanceId of [[[[{ toString: null }]]], { toString: null }, null, ['a'], 7]) {
      const registered = await post('/api/frontend/client/register', PROD_FRONTEND, { appName: 'web', instanceId })
      expect([registered.status, await registered.text()]).toEqual([200, 'OK'])
      const bucket = { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: {} }
      const counted = await post('/api/frontend/client/metrics', PROD_FRONTEND, { appName: 'web', instanceId, bucket })
      expect(counted.status).toBeLessThan(500)
    }
  })

  it("a project-scoped token's metrics count only its own projects' flags", async () => {
    const bucket = {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { alpha: { yes: 40, no: 0, variants: {} }, off: { yes: 7, no: 0, variants: {} } },
    }
    expect(
      (await post('/api/frontend/client/metrics', P1_FRONTEND, { appName: 'web', instanceId: 'b', bucket })).status,
    ).toBe(200)
    await upstream.waitFor((requests) =>
      requests.some((r) => r.path === '/client/metrics' && r.body.includes('"off":{"yes":7')),
    )
    const sent = upstream
      .requestsTo('/client/metrics')
      .map((r) => JSON.parse(r.body).bucket.toggles as Record<string, { yes: number }>)
    expect(sent.reduce((sum, toggles) => sum + (toggles.alpha?.yes ?? 0), 0)).toBe(0)
  })
})

describe('server-SDK API (/api/client/*)', () => {
  it("answers the token scope's definitions with segments and a strong ETag; 304 when unchanged", async () => {
    const res = await get('/api/client/features', DEV_CLIENT)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { features: Array<{ name: string }>; segments: unknown[]; query: unknown }
    expect(body.features.map((f) => f.name)).toEqual([
      'zeta',
      'alpha',
      'off',
      'only-in-production-context',
      'for-user-7',
    ])
    expect(body.segments).toEqual([])
    expect(body.query).toEqual({ projects: ['*'], environment: 'development', inlineSegmentConstraints: false })
    const etag = res.headers.get('etag')!
    expect(etag).toMatch(/^"/)
    expect((await get('/api/client/features', DEV_CLIENT, { 'if-none-match': etag })).status).toBe(304)
  })

  it('filters by project and namePrefix, within the token scope only', async () => {
    const byProject = (await (await get('/api/client/features?project=p1', DEV_CLIENT)).json()) as {
      features: Array<{ name: string }>
    }
    expect(byProject.features.map((f) => f.name)).toEqual(['zeta', 'off', 'only-in-production-context'])
    const byPrefix = (await (await get('/api/client/features?namePrefix=al', DEV_CLIENT)).json()) as {
      features: Array<{ name: string }>
    }
    expect(byPrefix.features.map((f) => f.name)).toEqual(['alpha'])
  })

  it('a learned narrower client token is served from the covering sync (no upstream fetch with it)', async () => {
    const res = await get('/api/client/features', P2_PROD_CLIENT)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { features: Array<{ name: string }> }).features.map((f) => f.name)).toEqual([
      'prod-only',
    ])
    expect(upstream.requestsTo('/client/features').filter((r) => r.headers.authorization === P2_PROD_CLIENT)).toEqual(
      [],
    )
  })

  it('a client token of a new environment starts a sync of its own; frontend tokens of that environment then work', async () => {
    expect((await get('/api/client/features', STAGING_CLIENT)).status).toBe(503)
    await waitFor(async () => (await get('/api/client/features', STAGING_CLIENT)).status === 200, 'the staging sync')
    expect(await names(await get('/api/frontend', STAGING_FRONTEND))).toEqual(['staging-only'])
  })

  it('GET /api/client/features/<name>, metrics and registration (202), bulk metrics of the token environment', async () => {
    const one = await get('/api/client/features/alpha', DEV_CLIENT)
    expect(((await one.json()) as { name: string }).name).toBe('alpha')
    expect((await get('/api/client/features/nope', DEV_CLIENT)).status).toBe(404)
    const now = new Date().toISOString()
    expect(
      (
        await post('/api/client/metrics', DEV_CLIENT, {
          appName: 'srv',
          instanceId: 'i',
          bucket: { start: now, stop: now, toggles: { alpha: { yes: 2, no: 0 } } },
        })
      ).status,
    ).toBe(202)
    expect(
      (
        await post('/api/client/register', DEV_CLIENT, {
          appName: 'srv',
          interval: 10_000,
          started: now,
          strategies: ['default'],
        })
      ).status,
    ).toBe(202)
    const bulk = {
      applications: [],
      metrics: [
        {
          featureName: 'zeta',
          appName: 'srv',
          environment: 'development',
          timestamp: now,
          yes: 5,
          no: 0,
          variants: {},
        },
        { featureName: 'zeta', environment: 'production', yes: 100, no: 0 },
      ],
    }
    expect((await post('/api/client/metrics/bulk', DEV_CLIENT, bulk)).status).toBe(202)
    await upstream.waitFor((requests) =>
      requests.some(
        (r) => r.path === '/client/metrics' && r.headers.authorization === DEV_CLIENT && r.body.includes('"zeta"'),
      ),
    )
    const sent = upstream
      .requestsTo('/client/metrics')
      .filter((r) => r.headers.authorization === DEV_CLIENT)
      .map((r) => JSON.parse(r.body).bucket.toggles)
    const zeta = sent.reduce((sum, toggles) => sum + (toggles.zeta?.yes ?? 0), 0)
    expect(zeta).toBe(5)
  })
})

describe("Edge's operational routes and token validation", () => {
  it('health, ready, metrics', async () => {
    expect(await (await get('/internal-backstage/health')).json()).toEqual({ status: 'OK' })
    expect(await (await get('/internal-backstage/ready')).json()).toEqual({ status: 'READY' })
    expect(await (await get('/internal-backstage/metrics')).text()).toContain('unleash_proxy_up')
  })

  it('/internal-backstage/tokens lists scopes, never a secret', async () => {
    const text = await (await get('/internal-backstage/tokens')).text()
    const body = JSON.parse(text) as {
      tokenRefreshes: Array<{ environment: string }>
      tokenValidationStatus: Array<{ token: string }>
    }
    expect(body.tokenRefreshes.map((r) => r.environment)).toEqual(expect.arrayContaining(['development', 'production']))
    expect(body.tokenValidationStatus.map((t) => t.token)).toContain('*:development.*****')
    for (const secret of [DEV_CLIENT, PROD_CLIENT, DEV_FRONTEND])
      expect(text).not.toContain(secret.slice(secret.indexOf('.') + 1))
  })

  it('POST /edge/validate lists the valid client and frontend tokens among those given', async () => {
    const res = await post('/edge/validate', undefined, {
      tokens: [DEV_FRONTEND, 'garbage', '*:development.nope', DEV_CLIENT],
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      tokens: [
        { token: DEV_FRONTEND, type: 'frontend', projects: ['*'], environment: 'development' },
        { token: DEV_CLIENT, type: 'client', projects: ['*'], environment: 'development' },
      ],
    })
    expect((await post('/edge/validate', undefined, { nope: 1 })).status).toBe(400)
  })

  it('the old /proxy routes keep working beside them', async () => {
    const res = await get('/proxy', CLIENT_KEY)
    expect(res.status).toBe(200)
    expect(await names(res)).toEqual(['static'])
  })
})

describe('revocation', () => {
  it('a token revoked upstream is refused within one refresh interval', async () => {
    const revocable = '*:development.revocable-1'
    const all = [token(DEV_CLIENT, 'client', 'development'), token(revocable, 'frontend', 'development')]
    upstream.setValidTokens([...all, token(PROD_CLIENT, 'client', 'production')])
    expect((await get('/api/frontend', revocable)).status).toBe(200)
    upstream.setValidTokens([token(DEV_CLIENT, 'client', 'development'), token(PROD_CLIENT, 'client', 'production')])
    const revokedAt = Date.now()
    await waitFor(async () => (await get('/api/frontend', revocable)).status === 401, 'the revocation', 5_000)
    expect(Date.now() - revokedAt).toBeLessThan(2_500)
  })
})

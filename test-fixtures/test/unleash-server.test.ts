// The real Unleash 8.2 server fixture starts, takes admin setup, and answers the frontend API and
// /edge/validate as docs/edge-compatibility.md describes it (the ground truth
// later comparison tests hold Vexil to). Outside CI a machine without the install skips with a
// message; under CI=true its absence fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startUnleashServer,
  UNLEASH_FRONTEND_PREFLIGHT_HEADERS,
  type UnleashServer,
  unleashServerAvailable,
  unleashServerMissing,
} from '../src/unleash-server.ts'

const available = unleashServerAvailable()
if (!available)
  console.warn(
    `[unleash-server] ${unleashServerMissing()}: the Unleash comparison tests are skipped (they fail under CI=true).`,
  )

const CLIENT = '*:development.vexil-smoke-client'
const CONTEXT = 'userId=u1&sessionId=s1&tenant=acme'
const AUTH_REQUIRED = {
  message: 'This endpoint requires an API token. Please add an authorization header to your request with a valid token',
}
const WRONG_TYPE = { message: 'invalid token: expected a different token type for this endpoint' }
const WEAK_ETAG = /^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/

describe.runIf(available)('a real Unleash 8.2 server', () => {
  let unleash: UnleashServer
  let frontend: string

  beforeAll(async () => {
    unleash = await startUnleashServer({ clientTokens: [CLIENT] })
    const { admin } = unleash
    const segment = await admin.createSegment('beta-tenants', [
      { contextName: 'tenant', operator: 'IN', values: ['acme'], inverted: false, caseInsensitive: false },
    ])
    await admin.createFlag('smoke.constrained', { description: 'constraint and strategy variant' })
    await admin.addStrategy('smoke.constrained', 'development', {
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['u1', 'u2'], inverted: false, caseInsensitive: false },
      ],
      variants: [
        {
          name: 'blue',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{"k":1}' },
        },
      ],
    })
    await admin.enable('smoke.constrained', 'development')
    await admin.createFlag('smoke.segmented', { impressionData: true })
    await admin.addStrategy('smoke.segmented', 'development', { segments: [segment.id] })
    await admin.setVariants('smoke.segmented', 'development', [
      { name: 'legacy', weight: 1000, weightType: 'variable', stickiness: 'default' },
    ])
    await admin.enable('smoke.segmented', 'development')
    await admin.createFlag('smoke.production-only')
    await admin.addStrategy('smoke.production-only', 'production', { name: 'default' })
    await admin.enable('smoke.production-only', 'production')
    frontend = await unleash.frontendToken('development')
    await unleash.waitForFrontend(frontend, (toggles) => toggles.length === 2, { query: CONTEXT })
    // Each environment's frontend cache fills on its own poll: wait for production's too.
    await unleash.waitForFrontend(await unleash.frontendToken('production'), (toggles) => toggles.length === 1)
  })

  afterAll(async () => {
    await unleash?.stop()
  })

  it("evaluates for the frontend token's environment: constraint, segment, strategy and flag variants", async () => {
    const response = await unleash.request('GET', `/api/frontend?${CONTEXT}`, { headers: { authorization: frontend } })
    expect(response.status).toBe(200)
    const toggles = (response.json as { toggles: Array<{ name: string }> }).toggles
    expect(Object.fromEntries(toggles.map((toggle) => [toggle.name, toggle]))).toEqual({
      'smoke.constrained': {
        name: 'smoke.constrained',
        enabled: true,
        variant: {
          name: 'blue',
          enabled: true,
          payload: { type: 'json', value: '{"k":1}' },
          feature_enabled: true,
          featureEnabled: true,
        },
        impressionData: false,
      },
      'smoke.segmented': {
        name: 'smoke.segmented',
        enabled: true,
        variant: { name: 'legacy', enabled: true, feature_enabled: true, featureEnabled: true },
        impressionData: true,
      },
    })
    // Key order of a toggle, byte for byte.
    expect(response.text).toContain(
      '{"name":"smoke.segmented","enabled":true,"variant":{"name":"legacy","enabled":true,"feature_enabled":true,"featureEnabled":true},"impressionData":true}',
    )

    const outside = await unleash.request('GET', '/api/frontend?userId=u3&sessionId=s1', {
      headers: { authorization: frontend },
    })
    expect(outside.json).toEqual({ toggles: [] })
    const production = await unleash.request('GET', '/api/frontend', {
      headers: { authorization: await unleash.frontendToken('production') },
    })
    expect((production.json as { toggles: Array<{ name: string }> }).toggles.map((toggle) => toggle.name)).toEqual([
      'smoke.production-only',
    ])
  })

  it('answers GET with no-cache, a weak Express ETag, open CORS, and 304 for a matching If-None-Match', async () => {
    const first = await unleash.request('GET', `/api/frontend?${CONTEXT}`, {
      headers: { authorization: frontend, origin: 'https://app.example' },
    })
    expect(first.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-cache',
      vary: 'Origin, Accept-Encoding',
      'access-control-allow-origin': '*',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'ETag',
      'ratelimit-policy': '20000;w=60',
    })
    const etag = first.headers.etag as string
    expect(etag).toMatch(WEAK_ETAG)

    const again = await unleash.request('GET', `/api/frontend?${CONTEXT}`, {
      headers: { authorization: frontend, 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
    expect(again.raw.length).toBe(0)
    expect(again.headers).toMatchObject({
      etag,
      'cache-control': 'no-cache',
      vary: 'Origin',
      'access-control-allow-origin': '*',
    })
    expect(again.headers['content-type']).toBeUndefined()

    // POST reads body.context only, gives the GET's bytes and ETag, and never answers 304.
    const post = await unleash.request('POST', '/api/frontend', {
      headers: { authorization: frontend, 'if-none-match': etag },
      body: { context: { userId: 'u1', sessionId: 's1', properties: { tenant: 'acme' } } },
    })
    expect(post.status).toBe(200)
    expect(post.headers.etag).toBe(etag)
    expect(post.raw.equals(first.raw)).toBe(true)
    const flat = await unleash.request('POST', '/api/frontend', {
      headers: { authorization: frontend },
      body: { userId: 'u1', sessionId: 's1' },
    })
    expect(flat.json).toEqual({ toggles: [] })
  })

  it('answers a CORS preflight with 204, mirroring the requested headers', async () => {
    const preflight = await unleash.request('OPTIONS', '/api/frontend', {
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers).toMatchObject(UNLEASH_FRONTEND_PREFLIGHT_HEADERS)
  })

  it.each([
    ['no token', undefined, 401, AUTH_REQUIRED],
    ['an unknown token', '*:development.unknown', 401, AUTH_REQUIRED],
    ['a client token', CLIENT, 403, WRONG_TYPE],
    ['the admin token', 'admin', 403, WRONG_TYPE],
  ])('refuses /api/frontend with %s: %i and a JSON message', async (_, token, status, body) => {
    const authorization = token === 'admin' ? unleash.adminToken : token
    const response = await unleash.request('GET', '/api/frontend', { headers: authorization ? { authorization } : {} })
    expect(response.status).toBe(status)
    expect(response.json).toEqual(body)
    expect(response.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'access-control-allow-origin': '*',
    })
    expect(response.headers['cache-control']).toBeUndefined()
  })

  it('validates tokens on POST /edge/validate without authorization: known ones in request order, unknown ones dropped', async () => {
    const response = await unleash.request('POST', '/edge/validate', {
      body: { tokens: [frontend, CLIENT, unleash.adminToken, '*:development.bogus'] },
    })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      tokens: [
        { token: frontend, type: 'frontend', projects: ['*'], environment: 'development' },
        { token: CLIENT, type: 'client', projects: ['*'], environment: 'development' },
        { token: unleash.adminToken, type: 'admin', projects: ['*'], environment: '*' },
      ],
    })
    expect(response.headers['access-control-allow-origin']).toBeUndefined()

    for (const authorization of [frontend, CLIENT]) {
      const refused = await unleash.request('POST', '/edge/validate', {
        headers: { authorization },
        body: { tokens: [CLIENT] },
      })
      expect([refused.status, refused.json]).toEqual([403, WRONG_TYPE])
    }
  })
})

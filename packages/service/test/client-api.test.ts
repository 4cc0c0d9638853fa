import { createEngine } from '@vexil/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

let service: TestService
let now = new Date('2026-03-01T10:15:00Z')
let dev: string
let prod: string
let shopOnly: string

const strategyPath = (flag: string, env: string, project = 'default') =>
  `/api/admin/projects/${project}/features/${flag}/environments/${env}/strategies`

beforeAll(async () => {
  service = await startTestService({ clock: () => now })
  await service.api('POST', '/api/admin/projects', { body: { id: 'shop', name: 'Shop' } })
  const segment = await service.api('POST', '/api/admin/segments', {
    body: { name: 'pro', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] },
  })
  await createFlag(service, 'default', 'rollout', { impressionData: true })
  await service.api('POST', strategyPath('rollout', 'development'), {
    body: {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'userId' },
      segments: [segment.body.id],
      sortOrder: 2,
    },
  })
  await service.api('POST', strategyPath('rollout', 'development'), {
    body: { name: 'userWithId', parameters: { userIds: 'ann' }, sortOrder: 1 },
  })
  await service.api('POST', strategyPath('rollout', 'development'), { body: { name: 'default', disabled: true } })
  await service.api('PUT', '/api/admin/projects/default/features/rollout/environments/development/variants', {
    body: [{ name: 'blue', weight: 0, payload: { type: 'json', value: '{"c":1}' } }],
  })
  await service.api('POST', '/api/admin/projects/default/features/rollout/environments/development/on')
  await createFlag(service, 'default', 'child')
  await service.api('POST', '/api/admin/projects/default/features/child/dependencies', {
    body: { feature: 'rollout', variants: ['blue'] },
  })
  await service.api('POST', '/api/admin/projects/default/features/child/environments/development/on')
  await createFlag(service, 'default', 'prod-only')
  await service.api('POST', strategyPath('prod-only', 'production'), {
    body: { name: 'userWithId', parameters: { userIds: 'secret-user' } },
  })
  await service.api('POST', '/api/admin/projects/default/features/prod-only/environments/production/on')
  await createFlag(service, 'shop', 'shop-flag', { tags: [{ type: 'simple', value: 'checkout' }] })
  dev = await service.clientToken('development')
  prod = await service.clientToken('production')
  shopOnly = await service.clientToken('development', ['shop'])
})
afterAll(() => service.close())

describe('GET /api/client/features', () => {
  it("returns the Unleash payload for the token's environment, strategies in sortOrder, segments by id", async () => {
    const { status, body } = await service.api('GET', '/api/client/features', { token: dev })
    expect(status).toBe(200)
    expect(body.version).toBe(2)
    expect(body.features.map((f: { name: string }) => f.name)).toEqual(['child', 'prod-only', 'rollout', 'shop-flag'])
    const rollout = body.features.find((f: { name: string }) => f.name === 'rollout')
    expect(rollout).toEqual({
      name: 'rollout',
      type: 'release',
      description: null,
      project: 'default',
      enabled: true,
      stale: false,
      impressionData: true,
      strategies: [
        { name: 'userWithId', constraints: [], parameters: { userIds: 'ann' }, variants: [], sortOrder: 1 },
        {
          name: 'flexibleRollout',
          constraints: [],
          parameters: { rollout: '100', stickiness: 'userId', groupId: 'rollout' },
          segments: [expect.any(Number)],
          variants: [],
          sortOrder: 2,
        },
      ],
      variants: [
        {
          name: 'blue',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{"c":1}' },
        },
      ],
    })
    expect(body.features.find((f: { name: string }) => f.name === 'child').dependencies).toEqual([
      { feature: 'rollout', enabled: true, variants: ['blue'] },
    ])
    expect(body.segments).toEqual([
      {
        id: expect.any(Number),
        name: 'pro',
        constraints: [
          { contextName: 'plan', operator: 'IN', values: ['pro'], inverted: false, caseInsensitive: false },
        ],
      },
    ])
    expect(body.query).toMatchObject({ environment: 'development', inlineSegmentConstraints: false })
  })

  it('is what the engine evaluates', async () => {
    const { body } = await service.api('GET', '/api/client/features', { token: dev })
    const engine = createEngine()
    expect(engine.load(body)).toEqual([])
    expect(engine.isEnabled('rollout', { userId: 'ann' })).toBe(true)
    expect(engine.isEnabled('rollout', { userId: 'zed', properties: { plan: 'pro' } })).toBe(true)
    expect(engine.isEnabled('rollout', { userId: 'zed', properties: { plan: 'free' } })).toBe(false)
    expect(engine.getVariant('rollout', { userId: 'ann' })).toMatchObject({
      name: 'blue',
      enabled: true,
      payload: { type: 'json', value: '{"c":1}' },
    })
    expect(engine.isEnabled('child', { userId: 'ann' })).toBe(true)
    expect(engine.isEnabled('prod-only', { userId: 'secret-user' })).toBe(false)
  })

  it('a development token never sees production state', async () => {
    const devBody = (await service.api('GET', '/api/client/features', { token: dev })).body
    const prodOnly = devBody.features.find((f: { name: string }) => f.name === 'prod-only')
    expect(prodOnly).toMatchObject({ enabled: false, strategies: [] })
    expect(JSON.stringify(devBody)).not.toContain('secret-user')
    const prodBody = (await service.api('GET', '/api/client/features', { token: prod })).body
    expect(prodBody.features.find((f: { name: string }) => f.name === 'prod-only')).toMatchObject({ enabled: true })
    expect(prodBody.features.find((f: { name: string }) => f.name === 'rollout')).toMatchObject({
      enabled: false,
      strategies: [],
    })
  })

  it('a project-scoped token sees only its projects, whatever the query asks', async () => {
    const own = (await service.api('GET', '/api/client/features', { token: shopOnly })).body
    expect(own.features.map((f: { name: string }) => f.name)).toEqual(['shop-flag'])
    const other = (await service.api('GET', '/api/client/features?project=default', { token: shopOnly })).body
    expect(other.features).toEqual([])
  })

  it.each([
    ['project', '?project=shop', ['shop-flag']],
    ['two projects', '?project=shop&project=default', ['child', 'prod-only', 'rollout', 'shop-flag']],
    ['namePrefix', '?namePrefix=ro', ['rollout']],
    ['tag', '?tag=simple:checkout', ['shop-flag']],
    ['unknown tag', '?tag=simple:none', []],
  ])('filters by %s', async (_name, query, names) => {
    const { body } = await service.api('GET', `/api/client/features${query}`, { token: dev })
    expect(body.features.map((f: { name: string }) => f.name)).toEqual(names)
  })

  it('rejects a malformed tag filter with 400', async () => {
    const { status, body } = await service.api('GET', '/api/client/features?tag=nocolon', { token: dev })
    expect(status).toBe(400)
    expect(body.message).toContain('query.tag')
  })

  it('sends a strong ETag and answers 304 to If-None-Match until something changes', async () => {
    const first = await service.api('GET', '/api/client/features', { token: dev })
    const etag = first.headers.get('etag') as string
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const again = await service.api('GET', '/api/client/features', { token: dev, headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.body).toBeUndefined()
    await service.api('POST', '/api/admin/projects/default/features/child/environments/development/off')
    const changed = await service.api('GET', '/api/client/features', { token: dev, headers: { 'if-none-match': etag } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
  })

  it('serves one flag', async () => {
    expect((await service.api('GET', '/api/client/features/rollout', { token: dev })).body.name).toBe('rollout')
    expect((await service.api('GET', '/api/client/features/nope', { token: dev })).status).toBe(404)
  })
})

describe('authentication', () => {
  it.each([
    ['no token', '/api/client/features', null, 401, 'AuthenticationRequired'],
    ['an unknown token', '/api/client/features', 'default:development.nope', 401, 'InvalidTokenError'],
    ['an admin token on the client API', '/api/client/features', 'ADMIN', 403, 'NoAccessError'],
    ['a client token on the admin API', '/api/admin/projects', 'CLIENT', 403, 'NoAccessError'],
    ['no token on the admin API', '/api/admin/projects', null, 401, 'AuthenticationRequired'],
  ])('%s → %i', async (_label, path, token, status, name) => {
    const resolved = token === 'ADMIN' ? service.admin : token === 'CLIENT' ? dev : token
    const { status: actual, body } = await service.api('GET', path, { token: resolved })
    expect(actual).toBe(status)
    expect(body).toMatchObject({ name, message: expect.any(String) })
  })

  it('accepts "Bearer <token>"', async () => {
    expect((await service.api('GET', '/api/client/features', { token: `Bearer ${dev}` })).status).toBe(200)
  })

  it('refuses an expired token with 401', async () => {
    const made = await service.api('POST', '/api/admin/api-tokens', {
      body: { tokenName: 'short', type: 'client', expiresAt: '2026-03-01T11:00:00Z' },
    })
    expect((await service.api('GET', '/api/client/features', { token: made.body.secret })).status).toBe(200)
    now = new Date('2026-03-01T12:00:00Z')
    expect((await service.api('GET', '/api/client/features', { token: made.body.secret })).status).toBe(401)
  })
})

describe('POST /api/client/metrics and /api/client/register', () => {
  const bucket = (toggles: Record<string, unknown>, start = '2026-03-01T12:05:00Z') => ({
    start,
    stop: '2026-03-01T12:06:00Z',
    toggles,
  })

  it('stores counts per hour, flag, app and environment, adding up posts', async () => {
    now = new Date('2026-03-01T13:00:00Z') // the buckets below are from the past hour or two
    const post = (body: unknown, token = dev) => service.api('POST', '/api/client/metrics', { token, body })
    expect(
      (
        await post({
          appName: 'web',
          instanceId: 'a',
          bucket: bucket({ rollout: { yes: 3, no: 1, variants: { blue: 3 } } }),
        })
      ).status,
    ).toBe(202)
    await post({
      appName: 'web',
      instanceId: 'b',
      bucket: bucket({ rollout: { yes: 2, no: 0, variants: { blue: 2 } } }, '2026-03-01T12:55:00Z'),
    })
    await post({ appName: 'web', instanceId: 'a', bucket: bucket({ rollout: { yes: 1, no: 1 } }) }, prod)
    await post({
      appName: 'web',
      instanceId: 'a',
      bucket: bucket({ rollout: { yes: 7, no: 0 } }, '2026-03-01T11:59:00Z'),
    })
    await post({ appName: 'web', instanceId: 'a', bucket: bucket({ 'no-such-flag': { yes: 1, no: 1 } }) })
    const { body } = await service.api('GET', '/api/admin/client-metrics/features/rollout/raw?hoursBack=3')
    expect(body.data).toEqual([
      {
        featureName: 'rollout',
        appName: 'web',
        environment: 'development',
        timestamp: '2026-03-01T12:00:00.000Z',
        yes: 5,
        no: 1,
        variants: { blue: 5 },
      },
      {
        featureName: 'rollout',
        appName: 'web',
        environment: 'production',
        timestamp: '2026-03-01T12:00:00.000Z',
        yes: 1,
        no: 1,
        variants: {},
      },
      {
        featureName: 'rollout',
        appName: 'web',
        environment: 'development',
        timestamp: '2026-03-01T11:00:00.000Z',
        yes: 7,
        no: 0,
        variants: {},
      },
    ])
    expect(await service.db.query(`SELECT 1 FROM client_metrics_hourly WHERE feature_name = 'no-such-flag'`)).toEqual(
      [],
    )
  })

  it.each([
    ['no appName', { bucket: bucket({}) }, 'body.appName'],
    ['no bucket', { appName: 'web' }, 'body.bucket'],
    [
      'a negative count',
      { appName: 'web', bucket: bucket({ rollout: { yes: -1, no: 0 } }) },
      'body.bucket.toggles.rollout.yes',
    ],
    ['a bad date', { appName: 'web', bucket: { ...bucket({}), start: 'yesterday' } }, 'body.bucket.start'],
  ])('answers 400 for %s, naming the field', async (_label, body, field) => {
    const response = await service.api('POST', '/api/client/metrics', { token: dev, body })
    expect(response.status).toBe(400)
    expect(response.body.message).toContain(field)
  })

  it('registers applications and their instances', async () => {
    const response = await service.api('POST', '/api/client/register', {
      token: dev,
      body: {
        appName: 'web',
        instanceId: 'a',
        sdkVersion: 'unleash-client-node:6.0.0',
        strategies: ['default', 'flexibleRollout'],
        started: '2026-03-01T10:00:00Z',
        interval: 15000,
      },
    })
    expect(response.status).toBe(202)
    expect((await service.api('POST', '/api/client/register', { token: dev, body: { instanceId: 'x' } })).status).toBe(
      400,
    )
    const { body } = await service.api('GET', '/api/admin/metrics/applications')
    expect(body.applications).toEqual([
      expect.objectContaining({
        appName: 'web',
        strategies: ['default', 'flexibleRollout'],
        instances: expect.arrayContaining([
          expect.objectContaining({
            instanceId: 'a',
            environment: 'development',
            sdkVersion: 'unleash-client-node:6.0.0',
            interval: 15000,
            started: '2026-03-01T10:00:00.000Z',
          }),
        ]),
      }),
    ])
  })
})

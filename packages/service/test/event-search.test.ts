import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'
import { createSignalEndpoint, sendSignal, waitFor } from './helpers/signals.js'

// Issue 46, items 3 and 6: the event log through Unleash's event API (`/api/admin/events`,
// `/api/admin/events/<name>`) and Unleash 8's event search (`/api/admin/search/events`), each
// event naming the token, user or action set behind the change.

let service: TestService
let now = new Date('2026-03-01T10:00:00Z')
let userId = 0
let personal = ''
let ops = ''

const search = (query: string) => service.api('GET', `/api/admin/search/events?${query}`)
const at = (iso: string) => {
  now = new Date(iso)
}

beforeAll(async () => {
  service = await startTestService({
    clock: () => now,
    env: { SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: '1000' },
    actionRunner: { sweepIntervalMs: 60_000 },
  })
  await service.api('POST', '/api/admin/projects', { body: { id: 'shop', name: 'Shop' } })
  await createFlag(service, 'default', 'checkout')
  at('2026-03-02T10:00:00Z')
  await createFlag(service, 'shop', 'basket')
  await service.api('POST', '/api/admin/projects/default/features/checkout/environments/development/on')

  at('2026-03-03T10:00:00Z')
  const user = await service.api('POST', '/api/admin/user-admin', {
    body: { email: 'ana@example.com', rootRole: 'Admin' },
  })
  userId = user.body.id
  personal = (await service.api('POST', `/api/admin/user-admin/${userId}/tokens`, { body: { description: 'ui' } })).body
    .secret
  await service.api('POST', '/api/admin/projects/default/features/checkout/environments/development/off', {
    token: personal,
  })

  const token = await service.api('POST', '/api/admin/api-tokens', {
    body: { tokenName: 'ops-bot', type: 'admin', environment: '*', projects: ['*'] },
  })
  ops = token.body.secret
  await service.api('POST', '/api/admin/projects/shop/features/basket/environments/development/on', { token: ops })
})
afterAll(() => service.close())

describe('the event log: Unleash shapes', () => {
  it('GET /api/admin/events: newest first, each event in eventSchema, with totalEvents', async () => {
    const { status, body } = await service.api('GET', '/api/admin/events?limit=2')
    expect(status).toBe(200)
    expect(body).toEqual({ version: 1, events: expect.any(Array), totalEvents: expect.any(Number) })
    expect(body.events).toHaveLength(2)
    expect(body.totalEvents).toBeGreaterThan(2)
    const [newest, older] = body.events
    expect(newest.id).toBeGreaterThan(older.id)
    expect(Object.keys(newest).sort()).toEqual(
      [
        'createdAt',
        'createdBy',
        'createdByUserId',
        'data',
        'environment',
        'featureName',
        'id',
        'preData',
        'project',
        'tags',
        'type',
      ].sort(),
    )
  })

  it("GET /api/admin/events/<name>: that flag's events only, named as the toggle", async () => {
    const { body } = await service.api('GET', '/api/admin/events/checkout')
    expect(body.toggleName).toBe('checkout')
    expect(body.events.map((e: { type: string }) => e.type)).toEqual([
      'feature-environment-disabled',
      'feature-environment-enabled',
      'feature-strategy-add',
      'feature-created',
    ])
    expect(body.events.every((e: { featureName: string }) => e.featureName === 'checkout')).toBe(true)
  })

  it('GET /api/admin/search/events: { events, total }, total counting every match past the page', async () => {
    const { status, body } = await search('feature=IS:checkout&limit=1')
    expect(status).toBe(200)
    expect(body).toEqual({ events: [expect.objectContaining({ type: 'feature-environment-disabled' })], total: 4 })
    const second = await search('feature=IS:checkout&limit=1&offset=1')
    expect(second.body.events[0].type).toBe('feature-environment-enabled')
    expect(second.body.total).toBe(4)
    expect((await search('feature=IS:checkout&offset=50')).body).toEqual({ events: [], total: 4 })
  })
})

describe('the event search: filters', () => {
  const types = async (query: string) =>
    ((await search(query)).body.events as { type: string; featureName: string }[]).map(
      (e) => `${e.featureName}:${e.type}`,
    )

  it('by project, with or without IS:', async () => {
    const shop = await search('project=IS:shop')
    expect(shop.body.events.every((e: { project: string }) => e.project === 'shop')).toBe(true)
    expect((await search('project=shop')).body).toEqual(shop.body)
  })

  it('by flag, one or any of several (IS_ANY_OF)', async () => {
    expect(await types('feature=IS_ANY_OF:basket,checkout&type=IS:feature-created')).toEqual([
      'basket:feature-created',
      'checkout:feature-created',
    ])
  })

  it('by type', async () => {
    expect(await types('type=IS_ANY_OF:feature-environment-enabled,feature-environment-disabled')).toEqual([
      'basket:feature-environment-enabled',
      'checkout:feature-environment-disabled',
      'checkout:feature-environment-enabled',
    ])
  })

  it('by actor: a token name, a user by email or by id', async () => {
    expect(await types('createdBy=IS:ops-bot')).toEqual([
      'basket:feature-environment-enabled',
      'basket:feature-strategy-add',
    ])
    expect(await types('createdBy=IS:ana@example.com')).toEqual(['checkout:feature-environment-disabled'])
    expect(await types(`createdBy=IS:${userId}`)).toEqual(['checkout:feature-environment-disabled'])
  })

  it('by time: from a day, to a day (inclusive), or instants', async () => {
    expect(await types('from=IS:2026-03-02&to=IS:2026-03-02&feature=IS_ANY_OF:basket,checkout')).toEqual([
      'checkout:feature-environment-enabled',
      'checkout:feature-strategy-add',
      'basket:feature-created',
    ])
    expect(await types('to=2026-03-01T23:59:59Z&feature=IS:checkout')).toEqual(['checkout:feature-created'])
    expect(await types('from=2026-03-03T00:00:00Z&feature=IS:checkout')).toEqual([
      'checkout:feature-environment-disabled',
    ])
  })

  it('filters combine (AND)', async () => {
    expect(await types('project=IS:default&createdBy=IS:test-admin&type=IS:feature-environment-enabled')).toEqual([
      'checkout:feature-environment-enabled',
    ])
  })
})

describe('the event search: bounds and bad queries (400 naming the parameter)', () => {
  it.each([
    ['limit=1001', 'query.limit'],
    ['limit=0', 'query.limit'],
    ['limit=ten', 'query.limit'],
    ['offset=-1', 'query.offset'],
    ['from=yesterday', 'query.from'],
    ['to=2026-13-45', 'query.to'],
    ['project=IS:', 'query.project'],
    [`feature=IS_ANY_OF:${Array.from({ length: 101 }, (_, i) => `f${i}`).join(',')}`, 'query.feature'],
    [`createdBy=IS:${'x'.repeat(256)}`, 'query.createdBy'],
    ['type=IS:a&type=IS:b', 'query.type'],
  ])('%s', async (query, field) => {
    const { status, body } = await search(query)
    expect(status, JSON.stringify(body)).toBe(400)
    expect(body.name).toBe('ValidationError')
    expect(body.message).toContain(field)
  })

  it('from after to: 400', async () => {
    const { status, body } = await search('from=2026-03-05&to=2026-03-01')
    expect(status).toBe(400)
    expect(body.message).toContain('"from" must be before "to"')
  })

  it('the page size defaults to 50', async () => {
    for (let i = 0; i < 45; i++) {
      const state = i % 2 === 0 ? 'off' : 'on'
      const toggled = await service.api(
        'POST',
        `/api/admin/projects/shop/features/basket/environments/development/${state}`,
      )
      expect(toggled.status).toBe(200)
    }
    const { body } = await search('')
    expect(body.events).toHaveLength(50)
    expect(body.total).toBeGreaterThan(50)
  })
})

describe('the event search: who may call it', () => {
  it('401 without a token, 403 for a client token', async () => {
    expect((await search('')).status).toBe(200)
    expect((await service.api('GET', '/api/admin/search/events', { token: null })).status).toBe(401)
    const client = await service.clientToken()
    expect((await service.api('GET', '/api/admin/search/events', { token: client })).status).toBe(403)
  })
})

describe('an action run: the event names the action set and links to the signal', () => {
  it('createdBy is the action set, its user the service account; origin names the set, the signal and its endpoint', async () => {
    await createFlag(service, 'default', 'kill-switch')
    await service.api('POST', '/api/admin/projects/default/features/kill-switch/environments/development/on')
    const endpoint = await createSignalEndpoint(service, 'alerts', ['alerts-bot'])
    const created = await service.api('POST', '/api/admin/projects/default/actions', {
      body: {
        name: 'shut on alert',
        match: { source: 'signal-endpoint', sourceId: endpoint.id, payload: {} },
        actions: [
          {
            action: 'TOGGLE_FEATURE_OFF',
            sortOrder: 1,
            executionParams: { project: 'default', environment: 'development', featureName: 'kill-switch' },
          },
        ],
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const signal = await sendSignal(service, endpoint.name, endpoint.tokens[0] as string, { alert: 'down' })
    expect(signal.status).toBe(200)
    const [event] = await waitFor(async () => {
      const { events } = (await search('feature=IS:kill-switch&type=IS:feature-environment-disabled')).body
      return events.length > 0 && events
    }, 'the action to turn kill-switch off')
    expect(event).toMatchObject({
      createdBy: 'action-set:shut on alert',
      createdByUserId: created.body.actorId,
      featureName: 'kill-switch',
      environment: 'development',
      data: { enabled: false },
      preData: { enabled: true },
      origin: { actionSetId: created.body.id, signalId: signal.body.id, signalEndpointId: endpoint.id },
    })
    expect((await search('createdBy=IS:action-set:shut on alert')).body.total).toBe(1)
  })
})

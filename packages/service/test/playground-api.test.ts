// The admin playground's API (issue 20): the payload the browser's engine evaluates, exactly the
// client API's for an all-projects token of the environment, and the recent contexts, shared
// through the database by every service instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

let service: TestService
let clock = new Date('2026-04-01T09:00:00Z')
const tick = () => (clock = new Date(clock.getTime() + 1_000))

beforeAll(async () => {
  service = await startTestService({ clock: () => clock })
  await service.api('POST', '/api/admin/projects', { body: { id: 'shop', name: 'Shop' } })
  const segment = await service.api('POST', '/api/admin/segments', {
    body: { name: 'pro', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] },
  })
  await createFlag(service, 'default', 'rollout')
  await service.api('POST', '/api/admin/projects/default/features/rollout/environments/development/strategies', {
    body: { name: 'flexibleRollout', parameters: { rollout: '40', stickiness: 'userId' }, segments: [segment.body.id] },
  })
  await service.api('POST', '/api/admin/projects/default/features/rollout/environments/development/on')
  await createFlag(service, 'shop', 'checkout', { tags: [{ type: 'simple', value: 'pay' }] })
  await service.api('POST', '/api/admin/projects/shop/features/checkout/environments/production/on')
})
afterAll(() => service.close())

const contexts = async () =>
  (await service.api('GET', '/api/admin/playground/contexts')).body.contexts as {
    context: unknown
    lastUsedAt: string
  }[]
const remember = (context: unknown) => service.api('POST', '/api/admin/playground/contexts', { body: { context } })

describe('GET /api/admin/playground/features', () => {
  it.each(['development', 'production'])(
    'is the body /api/client/features gives an all-projects client token of %s',
    async (environment) => {
      const client = await service.api('GET', '/api/client/features', { token: await service.clientToken(environment) })
      const playground = await service.api('GET', `/api/admin/playground/features?environment=${environment}`)
      expect(playground.status).toBe(200)
      expect(playground.body).toEqual(client.body)
      expect(playground.body.features.map((f: { name: string }) => f.name)).toEqual(['checkout', 'rollout'])
    },
  )

  it('follows a change at once', async () => {
    await service.api('POST', '/api/admin/projects/default/features/rollout/environments/development/off')
    const { body } = await service.api('GET', '/api/admin/playground/features?environment=development')
    expect(body.features.find((f: { name: string }) => f.name === 'rollout').enabled).toBe(false)
    await service.api('POST', '/api/admin/projects/default/features/rollout/environments/development/on')
  })

  it('answers 400 without an environment and 404 for an unknown one', async () => {
    const missing = await service.api('GET', '/api/admin/playground/features')
    expect(missing).toMatchObject({
      status: 400,
      body: { name: 'ValidationError', message: expect.stringContaining('query.environment is required') },
    })
    expect((await service.api('GET', '/api/admin/playground/features?environment=')).status).toBe(400)
    expect((await service.api('GET', '/api/admin/playground/features?environment=a&environment=b')).status).toBe(400)
    const unknown = await service.api('GET', '/api/admin/playground/features?environment=nowhere')
    expect(unknown).toMatchObject({
      status: 404,
      body: { name: 'NotFoundError', message: 'Environment "nowhere" does not exist.' },
    })
  })
})

describe('/api/admin/playground/contexts', () => {
  it('starts empty', async () => {
    expect(await contexts()).toEqual([])
  })

  it('records a context (204) and lists it with when it was last used', async () => {
    tick()
    const response = await remember({ userId: 'ann', properties: { plan: 'pro' } })
    expect(response.status).toBe(204)
    expect(response.body).toBeUndefined()
    expect(await contexts()).toEqual([
      { context: { userId: 'ann', properties: { plan: 'pro' } }, lastUsedAt: clock.toISOString() },
    ])
  })

  it('lists newest first, and the same context again (keys in any order) moves to the top instead of adding a row', async () => {
    tick()
    await remember({ userId: 'bob' })
    tick()
    await remember({ properties: { plan: 'pro' }, userId: 'ann' })
    const listed = await contexts()
    expect(listed.map((entry) => entry.context)).toEqual([
      { userId: 'ann', properties: { plan: 'pro' } },
      { userId: 'bob' },
    ])
    expect(listed[0]?.lastUsedAt).toBe(clock.toISOString())
  })

  it('orders uses within one millisecond by arrival', async () => {
    await remember({ userId: 'carl' })
    await remember({ userId: 'bob' })
    expect((await contexts()).slice(0, 2).map((entry) => entry.context)).toEqual([
      { userId: 'bob' },
      { userId: 'carl' },
    ])
  })

  it('keeps the 20 most recent, pruning older ones from the database', async () => {
    for (let i = 0; i < 25; i++) {
      tick()
      await remember({ userId: `u${i}`, appName: 'web' })
    }
    const listed = await contexts()
    expect(listed.map((entry) => (entry.context as { userId: string }).userId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `u${24 - i}`),
    )
    const [row] = await service.db.query<{ n: number }>('SELECT count(*)::int AS n FROM playground_contexts')
    expect(row?.n).toBe(20)
  })

  it('keeps hostile keys and characters as sent', async () => {
    const context = JSON.parse('{"__proto__":{"x":"1"},"userId":"a\\u0000b","properties":{"😀":"\\ud800"}}')
    expect((await remember(context)).status).toBe(204)
    const [first] = await contexts()
    expect(Object.keys(first?.context as object).sort()).toEqual(['__proto__', 'properties', 'userId'])
    expect(JSON.stringify(first?.context)).toBe(
      '{"__proto__":{"x":"1"},"properties":{"😀":"\\ud800"},"userId":"a\\u0000b"}',
    )
  })

  it('a second service instance on the same database sees and shares the contexts', async () => {
    const other = await startTestService({ db: service.db, clock: () => clock })
    try {
      tick()
      expect(
        (await other.api('POST', '/api/admin/playground/contexts', { body: { context: { userId: 'from-other' } } }))
          .status,
      ).toBe(204)
      expect((await contexts())[0]?.context).toEqual({ userId: 'from-other' })
    } finally {
      await other.close()
    }
  })

  it.each([
    ['no body', undefined, 'body.context'],
    ['no context', {}, 'body.context'],
    ['a context that is a string', { context: 'userId=ann' }, 'body.context must be an object'],
    ['a context that is an array', { context: [{ userId: 'ann' }] }, 'body.context must be an object'],
    ['a context that is null', { context: null }, 'body.context must be an object'],
    [
      'a context over 4 KB as JSON',
      { context: { userId: 'x'.repeat(4100) } },
      'body.context must be at most 4096 bytes as JSON',
    ],
    [
      'a context of 4 KB in multi-byte characters',
      { context: { userId: '日'.repeat(1400) } },
      'body.context must be at most 4096 bytes as JSON',
    ],
  ])('answers 400 for %s, recording nothing', async (_label, body, message) => {
    const before = await contexts()
    const response = await service.api('POST', '/api/admin/playground/contexts', body === undefined ? {} : { body })
    expect(response).toMatchObject({
      status: 400,
      body: { name: 'ValidationError', message: expect.stringContaining(message) },
    })
    expect(await contexts()).toEqual(before)
  })

  it('takes a context of exactly 4 KB as JSON', async () => {
    const context = { userId: 'x'.repeat(4096 - '{"userId":""}'.length) }
    expect(JSON.stringify(context).length).toBe(4096)
    expect((await remember(context)).status).toBe(204)
  })

  it('answers 400 for a body that is not JSON', async () => {
    const response = await service.api('POST', '/api/admin/playground/contexts', {
      body: '{"context":',
      headers: { 'content-type': 'application/json' },
    })
    expect(response).toMatchObject({ status: 400, body: { name: 'BadDataError' } })
  })
})

describe('access to the playground', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/admin/playground/features?environment=development'],
    ['GET', '/api/admin/playground/contexts'],
    ['POST', '/api/admin/playground/contexts', { context: { userId: 'x' } }],
  ]

  it.each(routes)(
    '%s %s answers 401 without a token and 403 to a client or non-admin personal token',
    async (method, path, body) => {
      const options = body === undefined ? {} : { body }
      expect((await service.api(method, path, { ...options, token: null })).status).toBe(401)
      expect(
        (await service.api(method, path, { ...options, token: await service.clientToken('development') })).status,
      ).toBe(403)
      const user = await service.api('POST', '/api/admin/user-admin', {
        body: { email: `editor-${method}-${path.length}@example.com`, rootRole: 'Editor' },
      })
      const pat = await service.api('POST', `/api/admin/user-admin/${user.body.id}/tokens`, {
        body: { description: 'playground' },
      })
      expect((await service.api(method, path, { ...options, token: pat.body.secret })).status).toBe(403)
    },
  )

  it('is declared admin in the route table', () => {
    const declared = service.routes.filter((route) => route.path.startsWith('/api/admin/playground'))
    expect(declared).toEqual([
      { method: 'GET', path: '/api/admin/playground/features', access: 'admin' },
      { method: 'GET', path: '/api/admin/playground/contexts', access: 'admin' },
      { method: 'POST', path: '/api/admin/playground/contexts', access: 'admin' },
    ])
  })
})

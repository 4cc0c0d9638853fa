// A project's default strategy per environment (issue 20, Unleash 8.2's project default
// strategy): what enabling a flag that has no strategy in an environment adds there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

let service: TestService
let segment: number

const path = (project: string, environment: string) =>
  `/api/admin/projects/${project}/environments/${environment}/default-strategy`
const strategiesOf = async (project: string, flag: string, environment: string) =>
  (await service.api('GET', `/api/admin/projects/${project}/features/${flag}/environments/${environment}/strategies`))
    .body
const enable = (project: string, flag: string, environment: string) =>
  service.api('POST', `/api/admin/projects/${project}/features/${flag}/environments/${environment}/on`)

const custom = {
  name: 'flexibleRollout',
  title: 'Beta users',
  parameters: { rollout: 25, stickiness: 'sessionId' },
  constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
  variants: [{ name: 'blue', weightType: 'variable', weight: 0, stickiness: 'default' }],
}

beforeAll(async () => {
  service = await startTestService()
  await service.api('POST', '/api/admin/projects', {
    body: { id: 'shop', name: 'Shop', defaultStickiness: 'userId', environments: ['development', 'production'] },
  })
  await service.api('POST', '/api/admin/environments', { body: { name: 'staging', type: 'test' } })
  segment = (
    await service.api('POST', '/api/admin/segments', {
      body: { name: 'beta', constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] },
    })
  ).body.id
})
afterAll(() => service.close())

describe('GET …/environments/:env/default-strategy', () => {
  it("is Unleash's built-in before one is set: flexibleRollout 100% with the project's default stickiness", async () => {
    const { status, body } = await service.api('GET', path('shop', 'development'))
    expect(status).toBe(200)
    expect(body).toEqual({
      name: 'flexibleRollout',
      title: null,
      disabled: false,
      constraints: [],
      parameters: { rollout: '100', stickiness: 'userId', groupId: '' },
      variants: [],
      segments: [],
    })
  })

  it.each([
    ['an unknown project', path('nowhere', 'development'), 'Project "nowhere" does not exist.'],
    ['an unknown environment', path('shop', 'nowhere'), 'Environment "nowhere" does not exist.'],
    [
      'an environment not in the project',
      path('shop', 'staging'),
      'Environment "staging" in project "shop" does not exist.',
    ],
  ])('answers 404 for %s', async (_label, url, message) => {
    expect(await service.api('GET', url)).toMatchObject({ status: 404, body: { name: 'NotFoundError', message } })
  })
})

describe('PUT …/environments/:env/default-strategy', () => {
  it('stores the strategy and answers it: parameters as strings, weights shared out, the event recorded', async () => {
    const { status, body } = await service.api('PUT', path('shop', 'development'), {
      body: { ...custom, segments: [segment] },
    })
    expect(status).toBe(200)
    const stored = {
      name: 'flexibleRollout',
      title: 'Beta users',
      disabled: false,
      parameters: { rollout: '25', stickiness: 'sessionId' },
      constraints: [
        { contextName: 'appName', operator: 'IN', values: ['web'], inverted: false, caseInsensitive: false },
      ],
      variants: [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default' }],
      segments: [segment],
    }
    expect(body).toEqual(stored)
    expect((await service.api('GET', path('shop', 'development'))).body).toEqual(stored)
    const events = (await service.api('GET', '/api/admin/events?type=default-strategy-updated')).body.events
    expect(events[0]).toMatchObject({
      type: 'default-strategy-updated',
      project: 'shop',
      environment: 'development',
      data: stored,
      preData: null,
    })
  })

  it("leaves the project's other environments on the built-in", async () => {
    expect((await service.api('GET', path('shop', 'production'))).body.parameters).toEqual({
      rollout: '100',
      stickiness: 'userId',
      groupId: '',
    })
  })

  it("enabling a flag with no strategy there adds exactly that strategy, groupId the flag's name", async () => {
    await createFlag(service, 'shop', 'new-checkout')
    expect((await enable('shop', 'new-checkout', 'development')).status).toBe(200)
    const strategies = await strategiesOf('shop', 'new-checkout', 'development')
    expect(strategies).toEqual([
      {
        id: expect.any(String),
        name: 'flexibleRollout',
        title: 'Beta users',
        disabled: false,
        featureName: 'new-checkout',
        sortOrder: 0,
        parameters: { rollout: '25', stickiness: 'sessionId', groupId: 'new-checkout' },
        constraints: [
          { contextName: 'appName', operator: 'IN', values: ['web'], inverted: false, caseInsensitive: false },
        ],
        variants: [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default' }],
        segments: [segment],
      },
    ])
    const client = await service.api('GET', '/api/client/features', {
      token: await service.clientToken('development', ['shop']),
    })
    expect(client.body.features.find((f: { name: string }) => f.name === 'new-checkout')).toMatchObject({
      enabled: true,
      strategies: [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '25', stickiness: 'sessionId', groupId: 'new-checkout' },
          segments: [segment],
        },
      ],
    })
    const added = (await service.api('GET', '/api/admin/events/new-checkout?type=feature-strategy-add')).body.events
    expect(added).toHaveLength(1)
  })

  it("enabling in an environment without one adds the built-in, with the project's default stickiness", async () => {
    await createFlag(service, 'shop', 'plain')
    await enable('shop', 'plain', 'production')
    const [strategy] = await strategiesOf('shop', 'plain', 'production')
    expect(strategy).toMatchObject({
      name: 'flexibleRollout',
      title: null,
      parameters: { rollout: '100', stickiness: 'userId', groupId: 'plain' },
      constraints: [],
      variants: [],
      segments: [],
    })
  })

  it('a flag that already has strategies there is untouched', async () => {
    await createFlag(service, 'shop', 'configured')
    const own = { name: 'userWithId', parameters: { userIds: 'ann' } }
    await service.api('POST', '/api/admin/projects/shop/features/configured/environments/development/strategies', {
      body: own,
    })
    const before = await strategiesOf('shop', 'configured', 'development')
    await enable('shop', 'configured', 'development')
    expect(await strategiesOf('shop', 'configured', 'development')).toEqual(before)
    expect(before).toHaveLength(1)
  })

  it('keeps a groupId the default strategy names, and fills a missing stickiness and rollout', async () => {
    await service.api('PUT', path('shop', 'production'), {
      body: { name: 'flexibleRollout', parameters: { groupId: 'shared' } },
    })
    await createFlag(service, 'shop', 'grouped')
    await enable('shop', 'grouped', 'production')
    expect((await strategiesOf('shop', 'grouped', 'production'))[0].parameters).toEqual({
      groupId: 'shared',
      stickiness: 'userId',
      rollout: '100',
    })
  })

  it('applies to bulk enabling too', async () => {
    await createFlag(service, 'shop', 'bulk-a')
    await createFlag(service, 'shop', 'bulk-b')
    const response = await service.api('POST', '/api/admin/projects/shop/bulk_features/environments/development/on', {
      body: { features: ['bulk-a', 'bulk-b'] },
    })
    expect(response.status).toBe(200)
    for (const flag of ['bulk-a', 'bulk-b']) {
      expect((await strategiesOf('shop', flag, 'development'))[0]).toMatchObject({
        title: 'Beta users',
        parameters: { groupId: flag, rollout: '25' },
      })
    }
  })

  it('is also set by POST, the method Unleash uses', async () => {
    const { status, body } = await service.api('POST', path('default', 'production'), {
      body: { name: 'flexibleRollout', parameters: { rollout: '10' } },
    })
    expect(status).toBe(200)
    expect(body.parameters).toEqual({ rollout: '10' })
    expect((await service.api('GET', path('default', 'production'))).body.parameters).toEqual({ rollout: '10' })
  })

  it('keeps a segment a default strategy uses from being deleted (409)', async () => {
    const only = (await service.api('POST', '/api/admin/segments', { body: { name: 'only-default', constraints: [] } }))
      .body.id
    await service.api('PUT', path('default', 'development'), { body: { name: 'flexibleRollout', segments: [only] } })
    const response = await service.api('DELETE', `/api/admin/segments/${only}`)
    expect(response).toMatchObject({
      status: 409,
      body: {
        name: 'ConflictError',
        message: `Segment ${only} is used by the default strategy of project "default" in "development"; remove it from there first.`,
      },
    })
    await service.api('PUT', path('default', 'development'), { body: { name: 'flexibleRollout' } })
    expect((await service.api('DELETE', `/api/admin/segments/${only}`)).status).toBe(204)
  })

  it.each([
    ['no body', undefined, 'body.name is required'],
    [
      'a strategy other than flexibleRollout',
      { name: 'default' },
      'only "flexibleRollout" can be an environment\'s default strategy',
    ],
    [
      'a constraint with an unknown operator',
      { name: 'flexibleRollout', constraints: [{ contextName: 'a', operator: 'NOPE', values: [] }] },
      'body.constraints.0.operator',
    ],
    [
      'a parameter that is an object',
      { name: 'flexibleRollout', parameters: { rollout: { n: 1 } } },
      'body.parameters.rollout',
    ],
    ['a segment that does not exist', { name: 'flexibleRollout', segments: [987654] }, 'segment 987654 does not exist'],
    [
      'fixed variant weights that do not add up',
      { name: 'flexibleRollout', variants: [{ name: 'a', weightType: 'fix', weight: 10 }] },
      'fixed weights must add up to 1000',
    ],
    ['a body that is an array', [], 'body'],
  ])('answers 400 for %s, storing nothing', async (_label, body, message) => {
    const before = (await service.api('GET', path('shop', 'development'))).body
    const response = await service.api('PUT', path('shop', 'development'), body === undefined ? {} : { body })
    expect(response.status).toBe(400)
    expect(['ValidationError', 'BadDataError']).toContain(response.body.name)
    expect(response.body.message).toContain(message)
    expect((await service.api('GET', path('shop', 'development'))).body).toEqual(before)
  })

  it.each([
    ['an unknown project', path('nowhere', 'development')],
    ['an unknown environment', path('shop', 'nowhere')],
    ['an environment not in the project', path('shop', 'staging')],
  ])('answers 404 for %s', async (_label, url) => {
    expect((await service.api('PUT', url, { body: { name: 'flexibleRollout' } })).status).toBe(404)
  })

  it('changes nothing the client API serves: a delta across it is a 304, not a hydration', async () => {
    const token = await service.clientToken('development')
    const first = await service.api('GET', '/api/client/delta', { token })
    await service.api('PUT', path('shop', 'development'), { body: { ...custom, title: 'Changed' } })
    const next = await service.api('GET', '/api/client/delta', {
      token,
      headers: { 'if-none-match': first.headers.get('etag') as string },
    })
    expect(next.status).toBe(304)
    expect(next.headers.get('etag')).not.toBe(first.headers.get('etag'))
  })

  it('goes with the environment when it leaves the project', async () => {
    await service.api('POST', '/api/admin/projects/shop/environments', { body: { environment: 'staging' } })
    await service.api('PUT', path('shop', 'staging'), {
      body: { name: 'flexibleRollout', parameters: { rollout: '5' } },
    })
    await service.api('DELETE', '/api/admin/projects/shop/environments/staging')
    await service.api('POST', '/api/admin/projects/shop/environments', { body: { environment: 'staging' } })
    expect((await service.api('GET', path('shop', 'staging'))).body.parameters.rollout).toBe('100')
  })

  it.each(['GET', 'PUT', 'POST'])('%s answers 401 without a token and 403 to a client token', async (method) => {
    const body = method === 'GET' ? {} : { body: { name: 'flexibleRollout' } }
    expect((await service.api(method, path('shop', 'development'), { ...body, token: null })).status).toBe(401)
    expect(
      (
        await service.api(method, path('shop', 'development'), {
          ...body,
          token: await service.clientToken('development'),
        })
      ).status,
    ).toBe(403)
  })
})

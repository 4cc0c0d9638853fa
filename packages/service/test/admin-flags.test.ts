import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from './helpers/service.js'

let service: TestService
beforeAll(async () => {
  service = await startTestService()
})
afterAll(() => service.close())

const P = '/api/admin/projects'
const F = `${P}/shop/features`
const S = `${F}/checkout/environments/development/strategies`

type Case = [
  label: string,
  method: string,
  path: string | (() => string),
  body: unknown,
  status: number,
  check?: (body: any) => void,
]

// Run in order: each row may rely on the state the rows above it made.
const cases: Case[] = [
  // Projects
  [
    'create a project',
    'POST',
    P,
    { id: 'shop', name: 'Shop', description: 'The shop' },
    201,
    (b) => expect(b).toMatchObject({ id: 'shop', name: 'Shop', environments: ['development', 'production'] }),
  ],
  ['create a project: duplicate id', 'POST', P, { id: 'shop', name: 'Shop again' }, 409],
  ['create a project: no name', 'POST', P, { id: 'nameless' }, 400, (b) => expect(b.message).toContain('body.name')],
  ['create a project: unknown environment', 'POST', P, { id: 'x', name: 'X', environments: ['mars'] }, 404],
  [
    'list projects',
    'GET',
    P,
    undefined,
    200,
    (b) => expect(b.projects.map((p: { id: string }) => p.id)).toEqual(['default', 'shop']),
  ],
  ['get a project', 'GET', `${P}/shop`, undefined, 200, (b) => expect(b.name).toBe('Shop')],
  ['get a project: unknown', 'GET', `${P}/nope`, undefined, 404],
  ['update a project', 'PUT', `${P}/shop`, { name: 'The Shop', description: 'Renamed' }, 200],
  ['update a project: unknown', 'PUT', `${P}/nope`, { name: 'N' }, 404],
  [
    'create an environment',
    'POST',
    '/api/admin/environments',
    { name: 'staging', type: 'test' },
    201,
    (b) => expect(b).toMatchObject({ name: 'staging', type: 'test', enabled: true }),
  ],
  ['create an environment: duplicate', 'POST', '/api/admin/environments', { name: 'staging', type: 'test' }, 409],
  [
    'create an environment: no type',
    'POST',
    '/api/admin/environments',
    { name: 'qa' },
    400,
    (b) => expect(b.message).toContain('body.type'),
  ],
  [
    'update an environment',
    'PUT',
    '/api/admin/environments/update/staging',
    { type: 'staging', sortOrder: 150 },
    200,
    (b) => expect(b).toMatchObject({ type: 'staging', sortOrder: 150 }),
  ],
  ['get an environment: unknown', 'GET', '/api/admin/environments/mars', undefined, 404],
  ['disable an environment', 'POST', '/api/admin/environments/staging/off', undefined, 204],
  ['enable an environment', 'POST', '/api/admin/environments/staging/on', undefined, 204],
  ['add an environment to a project', 'POST', `${P}/shop/environments`, { environment: 'staging' }, 200],
  [
    'add an environment to a project: unknown environment',
    'POST',
    `${P}/shop/environments`,
    { environment: 'mars' },
    404,
  ],
  ['remove an environment from a project', 'DELETE', `${P}/shop/environments/staging`, undefined, 200],
  ['remove an environment from a project: not there', 'DELETE', `${P}/shop/environments/staging`, undefined, 404],
  [
    'list environments',
    'GET',
    '/api/admin/environments',
    undefined,
    200,
    (b) =>
      expect(b.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'staging', 'production']),
  ],
  ['delete an environment', 'DELETE', '/api/admin/environments/staging', undefined, 200],
  ['delete an environment: unknown', 'DELETE', '/api/admin/environments/staging', undefined, 404],

  // Flags
  [
    'create a flag',
    'POST',
    F,
    { name: 'checkout', type: 'experiment', description: 'New checkout', impressionData: true },
    201,
    (b) =>
      expect(b).toMatchObject({
        name: 'checkout',
        type: 'experiment',
        project: 'shop',
        impressionData: true,
        stale: false,
        environments: [
          { name: 'development', enabled: false },
          { name: 'production', enabled: false },
        ],
      }),
  ],
  [
    'create a flag with tags',
    'POST',
    F,
    { name: 'upsell', tags: [{ type: 'simple', value: 'team-a' }] },
    201,
    (b) => expect(b.tags).toEqual([{ type: 'simple', value: 'team-a' }]),
  ],
  ['create a flag: name taken', 'POST', F, { name: 'checkout' }, 409],
  [
    'create a flag: name not URL-friendly',
    'POST',
    F,
    { name: 'has space' },
    400,
    (b) => expect(b.details[0].path).toBe('body.name'),
  ],
  [
    'create a flag: no name',
    'POST',
    F,
    {},
    400,
    (b) => expect(b.message).toBe('Request validation failed: body.name is required.'),
  ],
  ['create a flag: body is not JSON', 'POST', F, '{not json', 400],
  ['create a flag: body over 1 MiB', 'POST', F, { name: 'big', description: 'x'.repeat(1024 * 1024) }, 413],
  ['create a flag: unknown project', 'POST', `${P}/nope/features`, { name: 'x' }, 404],
  ['validate a flag name: free', 'POST', '/api/admin/features/validate', { name: 'free-name' }, 200],
  ['validate a flag name: taken', 'POST', '/api/admin/features/validate', { name: 'checkout' }, 409],
  [
    "list a project's flags",
    'GET',
    F,
    undefined,
    200,
    (b) => expect(b.features.map((f: { name: string }) => f.name)).toEqual(['checkout', 'upsell']),
  ],
  ['get a flag', 'GET', `${F}/checkout`, undefined, 200, (b) => expect(b.description).toBe('New checkout')],
  ['get a flag: other project in the path', 'GET', `${P}/default/features/checkout`, undefined, 404],
  [
    'update a flag',
    'PUT',
    `${F}/checkout`,
    { description: 'Updated', type: 'release' },
    200,
    (b) => expect(b).toMatchObject({ description: 'Updated', type: 'release' }),
  ],
  ['update a flag: rename refused', 'PUT', `${F}/checkout`, { name: 'other' }, 400],
  ['update a flag: unknown', 'PUT', `${F}/nope`, { description: 'x' }, 404],
  [
    'patch a flag',
    'PATCH',
    `${F}/checkout`,
    [{ op: 'replace', path: '/description', value: 'Patched' }],
    200,
    (b) => expect(b.description).toBe('Patched'),
  ],
  ['patch a flag: bad operation', 'PATCH', `${F}/checkout`, [{ op: 'replace', path: '/nope/deeper', value: 1 }], 400],

  // Strategies
  [
    'add a strategy',
    'POST',
    S,
    {
      name: 'flexibleRollout',
      parameters: { rollout: '25' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    },
    200,
    (b) =>
      expect(b).toMatchObject({
        name: 'flexibleRollout',
        featureName: 'checkout',
        parameters: { rollout: '25', groupId: 'checkout', stickiness: 'default' },
        sortOrder: 0,
      }),
  ],
  [
    'add a strategy with every operator family',
    'POST',
    S,
    {
      name: 'default',
      constraints: [
        { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3' },
        { contextName: 'age', operator: 'NUM_GTE', value: '18' },
        { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00Z' },
        { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'], caseInsensitive: true },
        { contextName: 'country', operator: 'NOT_IN', values: ['XX'], inverted: true },
        { contextName: 'remoteAddress', operator: 'IN_CIDR', values: ['10.0.0.0/8'] },
      ],
    },
    200,
    (b) => expect(b.constraints).toHaveLength(6),
  ],
  [
    'add a strategy with variants',
    'POST',
    S,
    {
      name: 'flexibleRollout',
      parameters: { rollout: 100 },
      variants: [
        { name: 'a', weight: 0, stickiness: 'default' },
        { name: 'b', weightType: 'fix', weight: 200 },
      ],
    },
    200,
    (b) =>
      expect(b.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([
        ['a', 800],
        ['b', 200],
      ]),
  ],
  [
    'add a strategy: unknown operator',
    'POST',
    S,
    { name: 'default', constraints: [{ contextName: 'a', operator: 'LIKE', values: [] }] },
    400,
    (b) => expect(b.message).toContain('body.constraints.0.operator'),
  ],
  [
    'add a strategy: single-value operator without value',
    'POST',
    S,
    { name: 'default', constraints: [{ contextName: 'a', operator: 'NUM_GT' }] },
    400,
    (b) => expect(b.message).toContain('body.constraints.0.value'),
  ],
  ['add a strategy: no name', 'POST', S, { parameters: {} }, 400],
  [
    'add a strategy: unknown segment',
    'POST',
    S,
    { name: 'default', segments: [999] },
    400,
    (b) => expect(b.message).toContain('999'),
  ],
  [
    'add a strategy: unknown environment',
    'POST',
    `${F}/checkout/environments/mars/strategies`,
    { name: 'default' },
    404,
  ],
  ['add a strategy: unknown flag', 'POST', `${F}/nope/environments/development/strategies`, { name: 'default' }, 404],
  [
    'list strategies',
    'GET',
    S,
    undefined,
    200,
    (b) => expect(b.map((s: { sortOrder: number }) => s.sortOrder)).toEqual([0, 1, 2]),
  ],
  ['get a strategy: unknown', 'GET', `${S}/nope`, undefined, 404],

  // Enable / disable
  ['enable in an environment', 'POST', `${F}/checkout/environments/development/on`, undefined, 200],
  ['enable with no strategy adds the default one', 'POST', `${F}/checkout/environments/production/on`, undefined, 200],
  [
    'read the environment',
    'GET',
    `${F}/checkout/environments/production`,
    undefined,
    200,
    (b) =>
      expect(b).toMatchObject({
        enabled: true,
        strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100', groupId: 'checkout' } }],
      }),
  ],
  ['disable in an environment', 'POST', `${F}/checkout/environments/production/off`, undefined, 200],
  ['enable: unknown environment', 'POST', `${F}/checkout/environments/mars/on`, undefined, 404],
  ['enable: unknown flag', 'POST', `${F}/nope/environments/development/on`, undefined, 404],
  ['bulk enable', 'POST', `${P}/shop/bulk_features/environments/development/on`, { features: ['upsell'] }, 200],
  ['bulk enable: empty list', 'POST', `${P}/shop/bulk_features/environments/development/on`, { features: [] }, 400],

  // Variants
  [
    'set variants in all environments',
    'PUT',
    `${F}/checkout/variants`,
    [
      { name: 'red', weight: 0, payload: { type: 'string', value: 'r' } },
      { name: 'blue', weight: 0 },
    ],
    200,
    (b) => expect(b.variants.map((v: { weight: number }) => v.weight)).toEqual([500, 500]),
  ],
  ['read variants', 'GET', `${F}/checkout/variants`, undefined, 200, (b) => expect(b.variants).toHaveLength(2)],
  [
    'set variants in one environment',
    'PUT',
    `${F}/checkout/environments/production/variants`,
    [{ name: 'only', weight: 1000 }],
    200,
  ],
  [
    'patch variants',
    'PATCH',
    `${F}/checkout/environments/production/variants`,
    [{ op: 'add', path: '/-', value: { name: 'second', weight: 0 } }],
    200,
    (b) => expect(b.variants.map((v: { name: string }) => v.name)).toEqual(['only', 'second']),
  ],
  [
    'batch variants',
    'PUT',
    `${F}/checkout/variants-batch`,
    { variants: [{ name: 'x', weight: 0 }], environments: ['production'] },
    200,
  ],
  [
    'variants: bad payload type',
    'PUT',
    `${F}/checkout/variants`,
    [{ name: 'v', payload: { type: 'xml', value: '<a/>' } }],
    400,
    (b) => expect(b.message).toContain('body.0.payload.type'),
  ],
  ['variants: duplicate name', 'PUT', `${F}/checkout/variants`, [{ name: 'v' }, { name: 'v' }], 400],

  [
    'clone a flag',
    'POST',
    `${F}/checkout/clone`,
    { name: 'checkout-copy' },
    201,
    (b) =>
      expect(b.environments.find((e: { name: string }) => e.name === 'development')).toMatchObject({
        enabled: false,
        strategies: expect.arrayContaining([
          expect.objectContaining({
            name: 'flexibleRollout',
            parameters: expect.objectContaining({ groupId: 'checkout-copy' }),
          }),
        ]),
      }),
  ],
  ['clone a flag: name taken', 'POST', `${F}/checkout/clone`, { name: 'upsell' }, 409],
  ['clone a flag: unknown source', 'POST', `${F}/nope/clone`, { name: 'x2' }, 404],

  // Dependencies
  ['add a dependency', 'POST', `${F}/upsell/dependencies`, { feature: 'checkout', variants: ['red'] }, 200],
  [
    'read dependencies',
    'GET',
    `${F}/upsell/dependencies`,
    undefined,
    200,
    (b) => expect(b).toEqual([{ feature: 'checkout', enabled: true, variants: ['red'] }]),
  ],
  ['add a dependency: unknown parent', 'POST', `${F}/upsell/dependencies`, { feature: 'nope' }, 404],
  ['add a dependency: on itself', 'POST', `${F}/upsell/dependencies`, { feature: 'upsell' }, 403],
  ['add a dependency: no feature', 'POST', `${F}/upsell/dependencies`, {}, 400],
  [
    'possible parents',
    'GET',
    `${F}/upsell/parents`,
    undefined,
    200,
    (b) => expect(b).toEqual(['checkout', 'checkout-copy']),
  ],
  ['delete a dependency', 'DELETE', `${F}/upsell/dependencies/checkout`, undefined, 200],
  ['delete a dependency: not there', 'DELETE', `${F}/upsell/dependencies/checkout`, undefined, 404],

  // Stale, archive, revive, delete
  ['mark stale', 'POST', `${P}/shop/stale`, { features: ['checkout'], stale: true }, 202],
  ['mark stale: bad body', 'POST', `${P}/shop/stale`, { features: ['checkout'] }, 400],
  [
    'mark not stale (legacy route)',
    'POST',
    '/api/admin/features/checkout/stale/off',
    undefined,
    200,
    (b) => expect(b.stale).toBe(false),
  ],
  ['archive a flag', 'DELETE', `${F}/upsell`, undefined, 202],
  ['archive a flag: already archived', 'DELETE', `${F}/upsell`, undefined, 404],
  [
    'list archived flags',
    'GET',
    '/api/admin/archive/features/shop',
    undefined,
    200,
    (b) => expect(b.features.map((f: { name: string }) => f.name)).toEqual(['upsell']),
  ],
  ['revive a flag', 'POST', '/api/admin/archive/revive/upsell', undefined, 200],
  ['revive a flag: not archived', 'POST', '/api/admin/archive/revive/upsell', undefined, 404],
  ['bulk archive', 'POST', `${P}/shop/archive`, { features: ['upsell'] }, 202],
  ['delete an archived flag', 'DELETE', '/api/admin/archive/upsell', undefined, 200],
  ['delete a flag that is not archived', 'DELETE', '/api/admin/archive/checkout', undefined, 404],
  ['delete a project with live flags', 'DELETE', `${P}/shop`, undefined, 403],
  ['delete the default project', 'DELETE', `${P}/default`, undefined, 403],
  ['delete a strategy', 'DELETE', () => `${S}/${strategyId}`, undefined, 200],
  [
    'feature types',
    'GET',
    '/api/admin/feature-types',
    undefined,
    200,
    (b) => expect(b.types.map((t: { id: string }) => t.id)).toContain('kill-switch'),
  ],
  ['unknown admin path', 'GET', '/api/admin/nothing-here', undefined, 404, (b) => expect(b.name).toBe('NotFoundError')],
]

let strategyId = ''

describe('admin API: projects, environments, flags, strategies, variants, dependencies, archive', () => {
  it.each(cases)('%s', async (_label, method, path, body, status, check) => {
    if (method === 'DELETE' && typeof path === 'function') {
      strategyId = (await service.api('GET', S)).body[0].id
    }
    const response = await service.api(
      method,
      typeof path === 'function' ? path() : path,
      body === undefined ? {} : { body },
    )
    expect(response.status, JSON.stringify(response.body)).toBe(status)
    if (status >= 400) expect(response.body).toMatchObject({ name: expect.any(String), message: expect.any(String) })
    check?.(response.body)
  })

  it('wrote an event for every change, with environment and actor', async () => {
    const { body } = await service.api('GET', '/api/admin/events?project=shop&limit=1000')
    const types = new Set(body.events.map((e: { type: string }) => e.type))
    for (const type of [
      'project-created',
      'feature-created',
      'feature-metadata-updated',
      'feature-strategy-add',
      'feature-strategy-remove',
      'feature-environment-enabled',
      'feature-environment-disabled',
      'feature-environment-variants-updated',
      'feature-dependency-added',
      'feature-dependency-removed',
      'feature-stale-on',
      'feature-stale-off',
      'feature-archived',
      'feature-revived',
      'feature-deleted',
    ]) {
      expect(types, type).toContain(type)
    }
    const enabled = body.events.find(
      (e: { type: string; environment: string }) =>
        e.type === 'feature-environment-enabled' && e.environment === 'production',
    )
    expect(enabled).toMatchObject({
      featureName: 'checkout',
      project: 'shop',
      createdBy: 'test-admin',
      data: { enabled: true },
    })
    const perFlag = await service.api('GET', '/api/admin/events/checkout')
    expect(perFlag.body.toggleName).toBe('checkout')
    expect(perFlag.body.events.length).toBeGreaterThan(5)
  })
})

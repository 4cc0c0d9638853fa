import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

let service: TestService
const saved: Record<string, string> = {}
beforeAll(async () => {
  service = await startTestService()
  await createFlag(service, 'default', 'tagged')
})
afterAll(() => service.close())

type Case = [
  label: string,
  method: string,
  path: string | (() => string),
  body: unknown,
  status: number,
  check?: (body: any) => void,
]
const constraint = { contextName: 'plan', operator: 'IN', values: ['pro'] }

const cases: Case[] = [
  // Segments
  [
    'create a segment',
    'POST',
    '/api/admin/segments',
    { name: 'pro', description: 'Paying', constraints: [constraint] },
    201,
    (b) => {
      expect(b).toMatchObject({
        id: expect.any(Number),
        name: 'pro',
        constraints: [{ ...constraint, inverted: false, caseInsensitive: false }],
      })
      saved.segment = String(b.id)
    },
  ],
  ['create a segment: name taken', 'POST', '/api/admin/segments', { name: 'pro', constraints: [] }, 409],
  [
    'create a segment: no constraints',
    'POST',
    '/api/admin/segments',
    { name: 'x' },
    400,
    (b) => expect(b.message).toContain('body.constraints'),
  ],
  [
    'create a segment: unknown project',
    'POST',
    '/api/admin/segments',
    { name: 'y', project: 'nope', constraints: [] },
    404,
  ],
  ['validate a segment name: taken', 'POST', '/api/admin/segments/validate', { name: 'pro' }, 409],
  ['validate a segment name: free', 'POST', '/api/admin/segments/validate', { name: 'free' }, 204],
  ['list segments', 'GET', '/api/admin/segments', undefined, 200, (b) => expect(b.segments).toHaveLength(1)],
  [
    'get a segment',
    'GET',
    () => `/api/admin/segments/${saved.segment}`,
    undefined,
    200,
    (b) => expect(b.name).toBe('pro'),
  ],
  ['get a segment: unknown', 'GET', '/api/admin/segments/999', undefined, 404],
  ['get a segment: id not a number', 'GET', '/api/admin/segments/abc', undefined, 400],
  [
    'update a segment',
    'PUT',
    () => `/api/admin/segments/${saved.segment}`,
    { name: 'pro', constraints: [constraint, { contextName: 'age', operator: 'NUM_GT', value: 18 }] },
    204,
  ],
  ['update a segment: unknown', 'PUT', '/api/admin/segments/999', { name: 'z', constraints: [] }, 404],
  [
    'use the segment in a strategy',
    'POST',
    () => '/api/admin/projects/default/features/tagged/environments/development/strategies',
    undefined,
    200,
  ],
  [
    'strategies using the segment',
    'GET',
    () => `/api/admin/segments/${saved.segment}/strategies`,
    undefined,
    200,
    (b) =>
      expect(b.strategies).toEqual([expect.objectContaining({ featureName: 'tagged', environment: 'development' })]),
  ],
  ['delete a segment in use', 'DELETE', () => `/api/admin/segments/${saved.segment}`, undefined, 409],

  // Tag types and tags
  [
    'create a tag type',
    'POST',
    '/api/admin/tag-types',
    { name: 'team', description: 'Owning team' },
    201,
    (b) => expect(b).toMatchObject({ name: 'team' }),
  ],
  ['create a tag type: duplicate', 'POST', '/api/admin/tag-types', { name: 'team' }, 409],
  ['create a tag type: bad name', 'POST', '/api/admin/tag-types', { name: 'has space' }, 400],
  [
    'list tag types',
    'GET',
    '/api/admin/tag-types',
    undefined,
    200,
    (b) => expect(b.tagTypes.map((t: { name: string }) => t.name)).toEqual(['simple', 'team']),
  ],
  ['update a tag type', 'PUT', '/api/admin/tag-types/team', { description: 'Team that owns it' }, 200],
  ['update a tag type: unknown', 'PUT', '/api/admin/tag-types/nope', { description: 'x' }, 404],
  [
    'create a tag',
    'POST',
    '/api/admin/tags',
    { type: 'team', value: 'payments' },
    201,
    (b) => expect(b.tag).toEqual({ type: 'team', value: 'payments' }),
  ],
  ['create a tag: exists', 'POST', '/api/admin/tags', { type: 'team', value: 'payments' }, 409],
  ['create a tag: unknown type', 'POST', '/api/admin/tags', { type: 'nope', value: 'xx' }, 400],
  [
    'create a tag: value too short',
    'POST',
    '/api/admin/tags',
    { type: 'team', value: 'x' },
    400,
    (b) => expect(b.message).toContain('body.value'),
  ],
  [
    'list tags',
    'GET',
    '/api/admin/tags',
    undefined,
    200,
    (b) => expect(b.tags).toEqual([{ type: 'team', value: 'payments' }]),
  ],
  ['get a tag: unknown', 'GET', '/api/admin/tags/team/nope', undefined, 404],
  ['tag a flag', 'POST', '/api/admin/features/tagged/tags', { type: 'simple', value: 'beta' }, 201],
  ['tag a flag: again', 'POST', '/api/admin/features/tagged/tags', { type: 'simple', value: 'beta' }, 409],
  ['tag a flag: unknown flag', 'POST', '/api/admin/features/nope/tags', { type: 'simple', value: 'beta' }, 404],
  [
    'add and remove tags',
    'PUT',
    '/api/admin/features/tagged/tags',
    { addedTags: [{ type: 'team', value: 'payments' }], removedTags: [{ type: 'simple', value: 'beta' }] },
    200,
    (b) => expect(b.tags).toEqual([{ type: 'team', value: 'payments' }]),
  ],
  [
    "list a flag's tags",
    'GET',
    '/api/admin/features/tagged/tags',
    undefined,
    200,
    (b) => expect(b.tags).toHaveLength(1),
  ],
  ['untag a flag', 'DELETE', '/api/admin/features/tagged/tags/team/payments', undefined, 200],
  ['delete a tag', 'DELETE', '/api/admin/tags/team/payments', undefined, 200],
  ['delete a tag: unknown', 'DELETE', '/api/admin/tags/team/payments', undefined, 404],
  ['delete a tag type', 'DELETE', '/api/admin/tag-types/team', undefined, 200],

  // Users
  [
    'create a user',
    'POST',
    '/api/admin/user-admin',
    { email: 'ada@example.com', name: 'Ada', rootRole: 'Admin' },
    201,
    (b) => {
      expect(b).toMatchObject({ email: 'ada@example.com', rootRole: 1, seenAt: null })
      saved.user = String(b.id)
    },
  ],
  ['create a user: email taken', 'POST', '/api/admin/user-admin', { email: 'ADA@example.com', rootRole: 2 }, 409],
  [
    'create a user: bad role',
    'POST',
    '/api/admin/user-admin',
    { email: 'b@example.com', rootRole: 'Boss' },
    400,
    (b) => expect(b.message).toContain('body.rootRole'),
  ],
  ['create a user: bad email', 'POST', '/api/admin/user-admin', { email: 'not-an-email', rootRole: 3 }, 400],
  ['create a user: no email or username', 'POST', '/api/admin/user-admin', { name: 'Anon', rootRole: 3 }, 400],
  [
    'list users',
    'GET',
    '/api/admin/user-admin',
    undefined,
    200,
    (b) => {
      expect(b.users).toHaveLength(1)
      expect(b.rootRoles).toHaveLength(3)
    },
  ],
  [
    'update a user',
    'PUT',
    () => `/api/admin/user-admin/${saved.user}`,
    { name: 'Ada L.', rootRole: 2 },
    200,
    (b) => expect(b).toMatchObject({ name: 'Ada L.', rootRole: 2 }),
  ],
  ['update a user: unknown', 'PUT', '/api/admin/user-admin/999', { name: 'x' }, 404],
  [
    'issue a personal token for a user',
    'POST',
    () => `/api/admin/user-admin/${saved.user}/tokens`,
    { description: 'cli' },
    201,
    (b) => {
      expect(b.secret).toMatch(/^user:[0-9a-f]{64}$/)
      saved.pat = b.secret
    },
  ],
  [
    'issue a personal token: expiry in the past',
    'POST',
    () => `/api/admin/user-admin/${saved.user}/tokens`,
    { description: 'old', expiresAt: '2000-01-01T00:00:00Z' },
    400,
  ],
  ['issue a personal token: unknown user', 'POST', '/api/admin/user-admin/999/tokens', { description: 'x' }, 404],

  // API tokens
  [
    'create a client token',
    'POST',
    '/api/admin/api-tokens',
    { tokenName: 'web', type: 'client', environment: 'production', projects: ['default'] },
    201,
    (b) => {
      expect(b).toMatchObject({
        tokenName: 'web',
        type: 'client',
        environment: 'production',
        project: 'default',
        projects: ['default'],
      })
      expect(b.secret).toMatch(/^default:production\.[0-9a-f]{56}$/)
      saved.client = b.secret
      saved.clientId = String(b.id)
    },
  ],
  [
    'create an admin token (type in capitals)',
    'POST',
    '/api/admin/api-tokens',
    { username: 'ops', type: 'ADMIN' },
    201,
    (b) => expect(b.secret).toMatch(/^\*:\*\./),
  ],
  [
    'create a token: unknown environment',
    'POST',
    '/api/admin/api-tokens',
    { tokenName: 'x', type: 'client', environment: 'mars' },
    404,
  ],
  [
    'create a token: unknown project',
    'POST',
    '/api/admin/api-tokens',
    { tokenName: 'x', type: 'client', projects: ['nope'] },
    404,
  ],
  [
    'create a token: bad type',
    'POST',
    '/api/admin/api-tokens',
    { tokenName: 'x', type: 'root' },
    400,
    (b) => expect(b.message).toContain('body.type'),
  ],
  ['create a token: no name', 'POST', '/api/admin/api-tokens', { type: 'client' }, 400],
  [
    'list tokens (secrets never shown again)',
    'GET',
    '/api/admin/api-tokens',
    undefined,
    200,
    (b) => {
      expect(b.tokens.length).toBeGreaterThanOrEqual(3)
      expect(b.tokens.every((t: { secret: string }) => t.secret.endsWith('…'))).toBe(true)
    },
  ],
  [
    "update a token's expiry",
    'PUT',
    () => `/api/admin/api-tokens/${saved.clientId}`,
    { expiresAt: '2999-01-01T00:00:00Z' },
    200,
  ],
  ['update a token: bad date', 'PUT', () => `/api/admin/api-tokens/${saved.clientId}`, { expiresAt: 'soon' }, 400],
  [
    'update a token named by its secret',
    'PUT',
    () => `/api/admin/api-tokens/${encodeURIComponent(saved.client ?? '')}`,
    { expiresAt: '2999-01-01T00:00:00Z' },
    400,
    (b) => expect(b.message).toContain("use the token's id"),
  ],
  ['delete a token', 'DELETE', () => `/api/admin/api-tokens/${saved.clientId}`, undefined, 200],
  ['delete a token: unknown', 'DELETE', () => `/api/admin/api-tokens/${saved.clientId}`, undefined, 404],

  // Users again (delete last, after their token was used below)
  [
    'list applications',
    'GET',
    '/api/admin/metrics/applications',
    undefined,
    200,
    (b) => expect(b.applications).toEqual([]),
  ],
  ['raw metrics: unknown flag', 'GET', '/api/admin/client-metrics/features/nope/raw', undefined, 404],
  [
    'events: bad limit',
    'GET',
    '/api/admin/events?limit=0',
    undefined,
    400,
    (b) => expect(b.message).toContain('query.limit'),
  ],
]

describe('admin API: segments, tags, users, API tokens', () => {
  it.each(cases)('%s', async (label, method, path, body, status, check) => {
    const segmentUse =
      label === 'use the segment in a strategy' ? { name: 'default', segments: [Number(saved.segment)] } : body
    const response = await service.api(
      method,
      typeof path === 'function' ? path() : path,
      segmentUse === undefined ? {} : { body: segmentUse },
    )
    expect(response.status, JSON.stringify(response.body)).toBe(status)
    if (status >= 400)
      expect(response.body).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        message: expect.any(String),
      })
    check?.(response.body)
  })

  it('a user manages their own personal tokens and is recorded as seen', async () => {
    const pat = saved.pat as string
    const me = await service.api('GET', '/api/admin/user', { token: pat })
    expect(me.status).toBe(200)
    expect(me.body.user.email).toBe('ada@example.com')
    expect(me.body.user.seenAt).not.toBeNull()
    const made = await service.api('POST', '/api/admin/user/tokens', { token: pat, body: { description: 'second' } })
    expect(made.status).toBe(201)
    const mine = await service.api('GET', '/api/admin/user/tokens', { token: pat })
    expect(mine.body.pats.map((p: { description: string }) => p.description)).toEqual(['cli', 'second'])
    expect(mine.body.pats.every((p: { secret?: string }) => p.secret === undefined)).toBe(true)
    expect((await service.api('DELETE', `/api/admin/user/tokens/${made.body.id}`, { token: pat })).status).toBe(200)
    expect((await service.api('DELETE', `/api/admin/user/tokens/${made.body.id}`, { token: pat })).status).toBe(404)
    // An Editor (root role 2 since the update above) has no ADMIN permission.
    expect((await service.api('GET', '/api/admin/projects', { token: pat })).status).toBe(403)
  })

  it('"who am I" with an admin token names the token (as Unleash answers for an API user); a client token is 403', async () => {
    const me = await service.api('GET', '/api/admin/user')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({
      user: { isAPI: true, name: 'test-admin', accountType: 'Admin token' },
      permissions: [{ permission: 'ADMIN' }],
    })
    expect((await service.api('GET', '/api/admin/user/tokens')).status).toBe(403)
    const client = await service.clientToken()
    expect((await service.api('GET', '/api/admin/user', { token: client })).status).toBe(403)
  })

  it('deleting a user revokes their tokens', async () => {
    expect((await service.api('DELETE', `/api/admin/user-admin/${saved.user}`)).status).toBe(200)
    expect((await service.api('GET', '/api/admin/user', { token: saved.pat as string })).status).toBe(401)
    expect((await service.api('DELETE', `/api/admin/user-admin/${saved.user}`)).status).toBe(404)
  })
})

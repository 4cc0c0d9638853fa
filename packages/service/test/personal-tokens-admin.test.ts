import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'
import { createSignalEndpoint } from './helpers/signals.js'

// Personal access tokens are a person's: the hidden service account action sets run as
// (`signal-actions`, root role Admin, in no listing) must never get one, nor be edited or
// deleted as a user; and an admin sees and revokes every user's tokens in one place.
let service: TestService
let actorId: number
let alice: { id: number; token: string; tokenId: number }
let bob: { id: number; token: string; tokenId: number }

const ok = async (method: string, path: string, body?: unknown) => {
  const response = await service.api(method, path, body === undefined ? {} : { body })
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

beforeAll(async () => {
  service = await startTestService()
  const endpoint = await createSignalEndpoint(service, 'pager')
  await createFlag(service, 'default', 'checkout')
  const set = await ok('POST', '/api/admin/projects/default/actions', {
    name: 'kill checkout',
    match: { source: 'signal-endpoint', sourceId: endpoint.id, payload: {} },
    actions: [
      {
        action: 'TOGGLE_FEATURE_OFF',
        sortOrder: 1,
        executionParams: { project: 'default', environment: 'development', featureName: 'checkout' },
      },
    ],
  })
  actorId = set.actorId
  const person = async (email: string, rootRole: string) => {
    const user = await ok('POST', '/api/admin/user-admin', { email, name: email.split('@')[0], rootRole })
    const token = await ok('POST', `/api/admin/user-admin/${user.id}/tokens`, {
      description: `${email}'s laptop`,
      expiresAt: '2999-01-01T00:00:00Z',
    })
    return { id: user.id as number, token: token.secret as string, tokenId: token.id as number }
  }
  alice = await person('alice@example.com', 'Admin')
  bob = await person('bob@example.com', 'Viewer')
})
afterAll(() => service.close())

describe('the signal-actions service account is not a user', () => {
  it('POST /api/admin/user-admin/:id/tokens for it is 403, and no token is made', async () => {
    const response = await service.api('POST', `/api/admin/user-admin/${actorId}/tokens`, {
      body: { description: 'backdoor' },
    })
    expect(response.status).toBe(403)
    expect(response.body).toMatchObject({
      name: 'InvalidOperationError',
      message: expect.stringContaining('service account'),
    })
    expect(await service.db.query('SELECT 1 FROM personal_access_tokens WHERE user_id = $1', [actorId])).toEqual([])
  })

  it('a token made for it before (by the old service) does not sign in', async () => {
    const { insertPersonalToken } = await import('../src/store/personal-tokens.js')
    await insertPersonalToken(
      service.db,
      { userId: actorId, secret: 'user:legacy-service-account-token', description: 'old', expiresAt: null },
      new Date(),
    )
    expect((await service.api('GET', '/api/admin/user', { token: 'user:legacy-service-account-token' })).status).toBe(
      401,
    )
    await service.db.query('DELETE FROM personal_access_tokens WHERE user_id = $1', [actorId])
  })

  it('PUT and DELETE /api/admin/user-admin/:id refuse it (403); its role and life are unchanged', async () => {
    const put = await service.api('PUT', `/api/admin/user-admin/${actorId}`, {
      body: { rootRole: 'Viewer', email: 'me@example.com' },
    })
    expect(put.status).toBe(403)
    expect(put.body.message).toContain('service account')
    const del = await service.api('DELETE', `/api/admin/user-admin/${actorId}`)
    expect(del.status).toBe(403)
    const [row] = await service.db.query<{ root_role: string; email: string | null; deleted_at: Date | null }>(
      'SELECT root_role, email, deleted_at FROM users WHERE id = $1',
      [actorId],
    )
    expect(row).toEqual({ root_role: 'Admin', email: null, deleted_at: null })
  })

  it('GET /api/admin/user-admin/:id says what it is', async () => {
    const { status, body } = await service.api('GET', `/api/admin/user-admin/${actorId}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ id: actorId, username: 'signal-actions', accountType: 'Service Account' })
  })
})

describe('GET /api/admin/personal-tokens', () => {
  it("lists every user's tokens with their owner, never a secret", async () => {
    const { status, body } = await service.api('GET', '/api/admin/personal-tokens')
    expect(status).toBe(200)
    expect(body.pats).toEqual([
      {
        id: alice.tokenId,
        userId: alice.id,
        userEmail: 'alice@example.com',
        userName: 'alice',
        description: "alice@example.com's laptop",
        createdAt: expect.any(String),
        expiresAt: '2999-01-01T00:00:00.000Z',
        seenAt: null,
      },
      {
        id: bob.tokenId,
        userId: bob.id,
        userEmail: 'bob@example.com',
        userName: 'bob',
        description: "bob@example.com's laptop",
        createdAt: expect.any(String),
        expiresAt: '2999-01-01T00:00:00.000Z',
        seenAt: null,
      },
    ])
    expect(JSON.stringify(body)).not.toContain(alice.token.slice(5))
  })

  it('needs the ADMIN permission', async () => {
    expect((await service.api('GET', '/api/admin/personal-tokens', { token: bob.token })).status).toBe(403)
    expect((await service.api('GET', '/api/admin/personal-tokens', { token: null })).status).toBe(401)
    expect((await service.api('GET', '/api/admin/personal-tokens', { token: alice.token })).status).toBe(200)
  })
})

describe('DELETE /api/admin/personal-tokens/:id', () => {
  it("revokes another user's token at once and writes the event log", async () => {
    expect((await service.api('GET', '/api/admin/user', { token: bob.token })).status).toBe(200)
    const response = await service.api('DELETE', `/api/admin/personal-tokens/${bob.tokenId}`)
    expect(response.status).toBe(200)
    expect((await service.api('GET', '/api/admin/user', { token: bob.token })).status).toBe(401)
    expect((await ok('GET', '/api/admin/personal-tokens')).pats.map((pat: { id: number }) => pat.id)).toEqual([
      alice.tokenId,
    ])
    const events = (await ok('GET', '/api/admin/events?type=pat-deleted')).events
    expect(events[0]).toMatchObject({
      type: 'pat-deleted',
      createdBy: 'test-admin',
      data: { id: bob.tokenId, userId: bob.id },
    })
  })

  it('404 for an unknown id, 400 for one that is not an integer', async () => {
    expect((await service.api('DELETE', `/api/admin/personal-tokens/${bob.tokenId}`)).status).toBe(404)
    expect((await service.api('DELETE', '/api/admin/personal-tokens/abc')).status).toBe(400)
  })

  it('needs the ADMIN permission', async () => {
    const carol = await ok('POST', '/api/admin/user-admin', { email: 'carol@example.com', rootRole: 'Editor' })
    const token = await ok('POST', `/api/admin/user-admin/${carol.id}/tokens`, { description: 'cli' })
    expect(
      (await service.api('DELETE', `/api/admin/personal-tokens/${alice.tokenId}`, { token: token.secret })).status,
    ).toBe(403)
    expect((await service.api('GET', '/api/admin/user', { token: alice.token })).status).toBe(200)
  })
})

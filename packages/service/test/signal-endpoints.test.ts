import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from './helpers/service.js'

// Issue 6, "Signal endpoints": the management API under /api/admin/signal-endpoints (ADMIN),
// tokens shown once and stored hashed, the endpoint and token limits (spec section 8).
let service: TestService
beforeAll(async () => {
  service = await startTestService({ actionRunner: false })
})
afterAll(() => service.close())

const BASE = '/api/admin/signal-endpoints'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

async function createEndpoint(name: string, extra: Record<string, unknown> = {}) {
  const response = await service.api('POST', BASE, { body: { name, ...extra } })
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return response.body as { id: number; name: string }
}

async function deleteAllEndpoints() {
  for (const endpoint of (await service.api('GET', BASE)).body.signalEndpoints) {
    expect((await service.api('DELETE', `${BASE}/${endpoint.id}`)).status).toBe(200)
  }
}

describe('signal endpoints: management', () => {
  it('lists none on a new instance', async () => {
    const response = await service.api('GET', BASE)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ signalEndpoints: [] })
  })

  it('creates an endpoint: 201, Location, the endpoint with its ingest URL', async () => {
    const response = await service.api('POST', BASE, { body: { name: 'pager-duty_2', description: 'Incidents' } })
    expect(response.status).toBe(201)
    expect(response.headers.get('location')).toBe(`signal-endpoints/${response.body.id}`)
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'pager-duty_2',
      description: 'Incidents',
      enabled: true,
      createdAt: expect.any(String),
      createdByUserId: null,
      tokens: [],
      url: `http://localhost:${new URL(service.url).port}/api/signal-endpoint/pager-duty_2`, // no PUBLIC_URL: localhost and the port
    })
    const listed = await service.api('GET', BASE)
    expect(listed.body.signalEndpoints).toEqual([expect.objectContaining({ name: 'pager-duty_2', tokens: [] })])
  })

  it.each([
    ['upper case', 'PagerDuty'],
    ['a space', 'pager duty'],
    ['a slash', 'a/b'],
    ['a dot', 'a.b'],
    ['empty', ''],
    ['too long', 'x'.repeat(101)],
  ])('refuses a name with %s: 400 naming body.name', async (_label, name) => {
    const response = await service.api('POST', BASE, { body: { name } })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('body.name') })
  })

  it('refuses a missing name (400) and a name taken (409)', async () => {
    expect((await service.api('POST', BASE, { body: { description: 'x' } })).status).toBe(400)
    const taken = await service.api('POST', BASE, { body: { name: 'pager-duty_2' } })
    expect(taken.status).toBe(409)
    expect(taken.body.name).toBe('NameExistsError')
  })

  it('updates, disables and enables an endpoint', async () => {
    const { id } = await createEndpoint('deploys', { enabled: false })
    const updated = await service.api('PUT', `${BASE}/${id}`, {
      body: { name: 'deployments', description: 'CD pipeline' },
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({
      id,
      name: 'deployments',
      description: 'CD pipeline',
      enabled: false,
      url: `http://localhost:${new URL(service.url).port}/api/signal-endpoint/deployments`,
    })
    const on = await service.api('POST', `${BASE}/${id}/on`)
    expect(on.status).toBe(200)
    expect(on.body).toMatchObject({ id, enabled: true })
    const off = await service.api('POST', `${BASE}/${id}/off`)
    expect(off.body).toMatchObject({ id, enabled: false })
    expect((await service.api('PUT', `${BASE}/${id}`, { body: { name: 'pager-duty_2' } })).status).toBe(409)
    expect((await service.api('PUT', `${BASE}/999`, { body: { name: 'x' } })).status).toBe(404)
    expect((await service.api('POST', `${BASE}/999/on`)).status).toBe(404)
    expect((await service.api('PUT', `${BASE}/abc`, { body: { name: 'x' } })).status).toBe(400)
  })

  it('deletes an endpoint: 200, then 404', async () => {
    const { id } = await createEndpoint('short-lived')
    expect((await service.api('DELETE', `${BASE}/${id}`)).status).toBe(200)
    expect((await service.api('DELETE', `${BASE}/${id}`)).status).toBe(404)
  })

  it('writes every change to the event log', async () => {
    const { body } = await service.api('GET', '/api/admin/events?limit=100')
    const types = body.events.map((e: { type: string }) => e.type)
    expect(types).toEqual(
      expect.arrayContaining(['signal-endpoint-created', 'signal-endpoint-updated', 'signal-endpoint-deleted']),
    )
    expect(body.events.find((e: { type: string }) => e.type === 'signal-endpoint-created')).toMatchObject({
      createdBy: 'test-admin',
    })
  })
})

describe('signal endpoint tokens', () => {
  let endpoint: { id: number }
  let secret = ''
  let tokenId = 0
  beforeAll(async () => {
    endpoint = await createEndpoint('tokens-here')
  })

  it('creates a token: 201, Location, the secret shown this once', async () => {
    const response = await service.api('POST', `${BASE}/${endpoint.id}/tokens`, { body: { name: 'ci' } })
    expect(response.status).toBe(201)
    expect(response.headers.get('location')).toBe(`signal-endpoints/${endpoint.id}/tokens/${response.body.id}`)
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'ci',
      signalEndpointId: endpoint.id,
      createdAt: expect.any(String),
      createdByUserId: null,
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    secret = response.body.token
    tokenId = response.body.id
  })

  it('never returns the secret again: token list, endpoint list, endpoint update', async () => {
    const tokens = await service.api('GET', `${BASE}/${endpoint.id}/tokens`)
    expect(tokens.status).toBe(200)
    expect(tokens.body).toEqual({
      signalEndpointTokens: [
        {
          id: tokenId,
          name: 'ci',
          signalEndpointId: endpoint.id,
          createdAt: expect.any(String),
          createdByUserId: null,
        },
      ],
    })
    const everything = JSON.stringify([
      tokens.body,
      (await service.api('GET', BASE)).body,
      (await service.api('PUT', `${BASE}/${endpoint.id}`, { body: { name: 'tokens-here' } })).body,
      (await service.api('GET', '/api/admin/events?limit=1000')).body,
    ])
    expect(everything).not.toContain(secret)
  })

  it('stores only a SHA-256 hash of the secret', async () => {
    const rows = await service.db.query<Record<string, unknown>>('SELECT * FROM signal_endpoint_tokens WHERE id = $1', [
      tokenId,
    ])
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(secret)
    expect(rows[0]?.token_hash).toBe(sha256(secret))
  })

  it('renames a token', async () => {
    const response = await service.api('PUT', `${BASE}/${endpoint.id}/tokens/${tokenId}`, {
      body: { name: 'github-actions' },
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      id: tokenId,
      name: 'github-actions',
      signalEndpointId: endpoint.id,
      createdAt: expect.any(String),
      createdByUserId: null,
    })
  })

  it('refuses a token without a name (400) and on unknown endpoints or tokens (404)', async () => {
    expect((await service.api('POST', `${BASE}/${endpoint.id}/tokens`, { body: {} })).status).toBe(400)
    // PostgreSQL cannot store \u0000 in text: a 400, never a 500.
    expect((await service.api('POST', `${BASE}/${endpoint.id}/tokens`, { body: { name: 'a\u0000b' } })).status).toBe(
      400,
    )
    expect((await service.api('POST', `${BASE}/999/tokens`, { body: { name: 'x' } })).status).toBe(404)
    expect((await service.api('GET', `${BASE}/999/tokens`)).status).toBe(404)
    expect((await service.api('PUT', `${BASE}/${endpoint.id}/tokens/999`, { body: { name: 'x' } })).status).toBe(404)
    const other = await createEndpoint('other-endpoint')
    // A token is reached only through its own endpoint.
    expect((await service.api('PUT', `${BASE}/${other.id}/tokens/${tokenId}`, { body: { name: 'x' } })).status).toBe(
      404,
    )
    expect((await service.api('DELETE', `${BASE}/${other.id}/tokens/${tokenId}`)).status).toBe(404)
  })

  it('deletes a token: 200, then 404', async () => {
    expect((await service.api('DELETE', `${BASE}/${endpoint.id}/tokens/${tokenId}`)).status).toBe(200)
    expect((await service.api('DELETE', `${BASE}/${endpoint.id}/tokens/${tokenId}`)).status).toBe(404)
    const { body } = await service.api('GET', '/api/admin/events?limit=100')
    expect(body.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining([
        'signal-endpoint-token-created',
        'signal-endpoint-token-updated',
        'signal-endpoint-token-deleted',
      ]),
    )
  })
})

describe('signal endpoint limits (spec section 8)', () => {
  it('a sixth endpoint answers 400 ExceedsLimitError naming the limit of 5', async () => {
    await deleteAllEndpoints()
    for (let i = 1; i <= 5; i++) await createEndpoint(`endpoint-${i}`)
    const sixth = await service.api('POST', BASE, { body: { name: 'endpoint-6' } })
    expect(sixth.status).toBe(400)
    expect(sixth.body).toMatchObject({ name: 'ExceedsLimitError', message: expect.stringContaining('limit of 5') })
    expect(sixth.body.message).toContain('signal endpoint')
    // Deleting one makes room again.
    const first = (await service.api('GET', BASE)).body.signalEndpoints[0]
    await service.api('DELETE', `${BASE}/${first.id}`)
    await createEndpoint('endpoint-6')
  })

  it('a sixth token on one endpoint answers 400 ExceedsLimitError naming the limit of 5', async () => {
    const { id } = (await service.api('GET', BASE)).body.signalEndpoints[0]
    for (let i = 1; i <= 5; i++)
      expect((await service.api('POST', `${BASE}/${id}/tokens`, { body: { name: `t${i}` } })).status).toBe(201)
    const sixth = await service.api('POST', `${BASE}/${id}/tokens`, { body: { name: 't6' } })
    expect(sixth.status).toBe(400)
    expect(sixth.body).toMatchObject({ name: 'ExceedsLimitError', message: expect.stringContaining('limit of 5') })
    expect((await service.api('GET', `${BASE}/${id}/tokens`)).body.signalEndpointTokens).toHaveLength(5)
  })

  it('racing creations never pass the limit', async () => {
    await deleteAllEndpoints()
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => service.api('POST', BASE, { body: { name: `race-${i}` } })),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(5)
    expect(results.filter((r) => r.status === 400)).toHaveLength(3)
  })
})

describe('signal endpoints: access', () => {
  it('needs the ADMIN permission: none 401, client token 403, Editor 403, Admin user 200', async () => {
    expect((await service.api('GET', BASE, { token: null })).status).toBe(401)
    expect((await service.api('GET', BASE, { token: await service.clientToken() })).status).toBe(403)
    const editor = await service.api('POST', '/api/admin/user-admin', {
      body: { email: 'ed@example.com', rootRole: 'Editor' },
    })
    const editorPat = (
      await service.api('POST', `/api/admin/user-admin/${editor.body.id}/tokens`, { body: { description: 'x' } })
    ).body.secret
    expect((await service.api('GET', BASE, { token: editorPat })).status).toBe(403)
    expect((await service.api('POST', BASE, { token: editorPat, body: { name: 'nope' } })).status).toBe(403)
    expect((await service.api('GET', '/api/admin/signals', { token: editorPat })).status).toBe(403)
    const admin = await service.api('POST', '/api/admin/user-admin', {
      body: { email: 'root@example.com', rootRole: 'Admin' },
    })
    const adminPat = (
      await service.api('POST', `/api/admin/user-admin/${admin.body.id}/tokens`, { body: { description: 'x' } })
    ).body.secret
    expect((await service.api('GET', BASE, { token: adminPat })).status).toBe(200)
  })

  it('records the creating user', async () => {
    await deleteAllEndpoints()
    const admin = (await service.api('GET', '/api/admin/user-admin')).body.users.find(
      (u: { email: string }) => u.email === 'root@example.com',
    )
    const pat = (await service.api('POST', `/api/admin/user-admin/${admin.id}/tokens`, { body: { description: 'y' } }))
      .body.secret
    const made = await service.api('POST', BASE, { token: pat, body: { name: 'by-user' } })
    expect(made.body.createdByUserId).toBe(admin.id)
    const token = await service.api('POST', `${BASE}/${made.body.id}/tokens`, { token: pat, body: { name: 'mine' } })
    expect(token.body.createdByUserId).toBe(admin.id)
  })
})

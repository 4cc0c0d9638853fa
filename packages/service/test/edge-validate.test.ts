import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from './helpers/service.js'

// POST /edge/validate (docs/edge-compatibility.md, section 2): which of the given tokens are valid, with
// type, environment and projects, so an Edge or a Vexil proxy in front learns a token's scope.
// As Unleash 8.2 it needs no credential; unlike Unleash 8.2 it never lists admin tokens (a proxy
// serves none, and the answer should not tell an anonymous caller which admin secrets work).
let service: TestService
const secret: Record<string, string> = {}

beforeAll(async () => {
  service = await startTestService()
  const make = async (key: string, body: Record<string, unknown>) => {
    const made = await service.api('POST', '/api/admin/api-tokens', { body: { tokenName: key, ...body } })
    expect(made.status).toBe(201)
    secret[key] = made.body.secret
  }
  await make('client', { type: 'client', environment: 'development' })
  await make('backend', { type: 'backend', environment: 'production', projects: ['default'] })
  await make('frontend', { type: 'frontend', environment: 'development', projects: ['default'] })
  await make('admin', { type: 'admin' })
  await make('expired', { type: 'client', environment: 'development', expiresAt: '2001-01-01T00:00:00Z' })
})
afterAll(() => service.close())

const validate = (body: unknown, token?: string) =>
  service.api('POST', '/edge/validate', { body, ...(token ? { token } : { token: null }) })

describe('POST /edge/validate', () => {
  it('lists the valid client and frontend tokens in request order; unknown, garbage, expired and admin tokens are left out', async () => {
    const response = await validate({
      tokens: [
        secret.frontend,
        '*:development.nope',
        'garbage',
        secret.admin,
        secret.client,
        secret.expired,
        secret.backend,
        secret.client,
      ],
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      tokens: [
        { token: secret.frontend, type: 'frontend', projects: ['default'], environment: 'development' },
        { token: secret.client, type: 'client', projects: ['*'], environment: 'development' },
        { token: secret.backend, type: 'client', projects: ['default'], environment: 'production' },
      ],
    })
  })

  it('needs no credential, and a credential changes nothing', async () => {
    expect((await validate({ tokens: [secret.client] })).body.tokens).toHaveLength(1)
    expect((await validate({ tokens: [secret.client] }, secret.admin)).body.tokens).toHaveLength(1)
  })

  it('answers an empty list with an empty list', async () => {
    expect(await validate({ tokens: [] })).toMatchObject({ status: 200, body: { tokens: [] } })
  })

  it.each([
    ['no tokens property', {}],
    ['tokens not a list', { tokens: 'x' }],
    ['a token not a string', { tokens: [1] }],
    [
      'more tokens than one request may check',
      { tokens: Array.from({ length: 1001 }, (_, i) => `*:development.${i}`) },
    ],
  ])('400 naming body.tokens for %s', async (_, body) => {
    const response = await validate(body)
    expect(response.status).toBe(400)
    expect(JSON.stringify(response.body)).toContain('tokens')
  })

  it('a revoked token is no longer listed', async () => {
    const made = await service.api('POST', '/api/admin/api-tokens', {
      body: { tokenName: 'soon-gone', type: 'frontend', environment: 'development' },
    })
    expect((await validate({ tokens: [made.body.secret] })).body.tokens).toHaveLength(1)
    expect((await service.api('DELETE', `/api/admin/api-tokens/${made.body.id}`)).status).toBe(200)
    expect((await validate({ tokens: [made.body.secret] })).body.tokens).toEqual([])
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from './helpers/service.js'

// A token's secret never belongs in a URL path (access logs, proxies and browser history keep
// paths): PUT and DELETE /api/admin/api-tokens/:id take the token's id only.
let service: TestService
let token: { id: number; secret: string }

beforeAll(async () => {
  service = await startTestService()
  const made = await service.api('POST', '/api/admin/api-tokens', {
    body: { tokenName: 'web', type: 'client', environment: 'development' },
  })
  token = { id: made.body.id, secret: made.body.secret }
})
afterAll(() => service.close())

const works = async () => (await service.api('GET', '/api/client/features', { token: token.secret })).status === 200

describe('PUT and DELETE /api/admin/api-tokens/:id', () => {
  it.each([
    ['PUT', { expiresAt: '2999-01-01T00:00:00Z' }],
    ['DELETE', undefined],
  ])(
    '%s with the secret in the path is 400 "use the token\'s id", does not echo it, and changes nothing',
    async (method, body) => {
      const response = await service.api(
        method,
        `/api/admin/api-tokens/${encodeURIComponent(token.secret)}`,
        body === undefined ? {} : { body },
      )
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject({
        name: 'BadDataError',
        message: expect.stringContaining("use the token's id"),
      })
      expect(JSON.stringify(response.body)).not.toContain(token.secret.split('.')[1])
      expect(await works()).toBe(true)
      const [row] = (await service.api('GET', '/api/admin/api-tokens')).body.tokens.filter(
        (t: { id: number }) => t.id === token.id,
      )
      expect(row.expiresAt).toBeNull()
    },
  )

  it.each(['abc', '1.5', '-1', '0x10'])('400 for the parameter %s', async (value) => {
    expect((await service.api('DELETE', `/api/admin/api-tokens/${value}`)).status).toBe(400)
  })

  it('404 for an id no token has, however large', async () => {
    expect((await service.api('DELETE', '/api/admin/api-tokens/987654')).status).toBe(404)
    expect(
      (
        await service.api('PUT', '/api/admin/api-tokens/99999999999999999999', {
          body: { expiresAt: '2999-01-01T00:00:00Z' },
        })
      ).status,
    ).toBe(404)
  })

  it('PUT by id updates the expiry, DELETE by id revokes the token', async () => {
    expect(
      (await service.api('PUT', `/api/admin/api-tokens/${token.id}`, { body: { expiresAt: '2999-01-01T00:00:00Z' } }))
        .status,
    ).toBe(200)
    const [row] = (await service.api('GET', '/api/admin/api-tokens')).body.tokens.filter(
      (t: { id: number }) => t.id === token.id,
    )
    expect(row.expiresAt).toBe('2999-01-01T00:00:00.000Z')
    expect((await service.api('DELETE', `/api/admin/api-tokens/${token.id}`)).status).toBe(200)
    expect(await works()).toBe(false)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from './helpers/service.js'

// Insights count "active users" by last seen; the service records it on personal-token
// requests, at most once per minute per user.
let service: TestService
let now = new Date('2026-05-01T08:00:00Z')
let pat = ''
let userId = 0

beforeAll(async () => {
  service = await startTestService({ clock: () => now })
  const user = await service.api('POST', '/api/admin/user-admin', {
    body: { email: 'sam@example.com', rootRole: 'Admin' },
  })
  userId = user.body.id
  pat = (await service.api('POST', `/api/admin/user-admin/${userId}/tokens`, { body: { description: 'ci' } })).body
    .secret
})
afterAll(() => service.close())

const seenAt = async () => (await service.api('GET', `/api/admin/user-admin/${userId}`)).body.seenAt

describe("users' last seen", () => {
  it('is unset until the user makes a request', async () => {
    expect(await seenAt()).toBeNull()
  })

  it("is written on a request with the user's personal token, then at most once a minute", async () => {
    expect((await service.api('GET', '/api/admin/projects', { token: pat })).status).toBe(200)
    expect(await seenAt()).toBe('2026-05-01T08:00:00.000Z')
    now = new Date('2026-05-01T08:00:30Z')
    await service.api('GET', '/api/admin/projects', { token: pat })
    expect(await seenAt()).toBe('2026-05-01T08:00:00.000Z')
    now = new Date('2026-05-01T08:01:05Z')
    await service.api('GET', '/api/admin/projects', { token: pat })
    expect(await seenAt()).toBe('2026-05-01T08:01:05.000Z')
  })

  it('admin changes made with a personal token name the user in the event log', async () => {
    await service.api('POST', '/api/admin/projects/default/features', { token: pat, body: { name: 'by-sam' } })
    const { body } = await service.api('GET', '/api/admin/events?feature=by-sam')
    expect(body.events[0]).toMatchObject({
      type: 'feature-created',
      createdBy: 'sam@example.com',
      createdByUserId: userId,
      createdAt: '2026-05-01T08:01:05.000Z',
    })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { takeInsightsSnapshot } from '../src/insights/snapshot.js'
import { insightsSchemaErrors } from './helpers/instance-insights-schema.js'
import { startTestService, type TestService } from './helpers/service.js'

// Who may read insights (issue 7: any authenticated user or admin token), what a fresh instance
// answers, and the 400s for a bad window.
let service: TestService
const now = new Date('2026-04-15T10:00:00Z')
const tokens: Record<string, string> = {}
const PATHS = ['/api/admin/insights', '/api/admin/dashboard/executive']

beforeAll(async () => {
  service = await startTestService({ clock: () => now })
  for (const rootRole of ['Admin', 'Editor', 'Viewer']) {
    const user = await service.api('POST', '/api/admin/user-admin', {
      body: { email: `${rootRole}@example.com`, rootRole },
    })
    tokens[rootRole] = (
      await service.api('POST', `/api/admin/user-admin/${user.body.id}/tokens`, { body: { description: 'x' } })
    ).body.secret
  }
  tokens.client = await service.clientToken('development')
})
afterAll(() => service.close())

describe.each(PATHS)('GET %s', (path) => {
  it.each([
    ['an admin API token', 'admin', 200],
    ["an Admin user's personal token", 'Admin', 200],
    ["an Editor user's personal token", 'Editor', 200],
    ["a Viewer user's personal token", 'Viewer', 200],
    ['a client token (not a user)', 'client', 403],
    ['an unknown token', 'unknown', 401],
    ['no token', 'none', 401],
  ])('with %s (%s): %i', async (_label, who, status) => {
    const token =
      who === 'none'
        ? null
        : who === 'admin'
          ? service.admin
          : who === 'unknown'
            ? '*:*.not-a-token'
            : (tokens[who] as string)
    const response = await service.api('GET', path, { token })
    expect(response.status).toBe(status)
    if (status !== 200)
      expect(response.body).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        message: expect.any(String),
      })
  })

  it.each([
    ['from is not a date', '?from=yesterday', 'query.from'],
    ['from is not yyyy-MM-dd', '?from=2026-4-01', 'query.from'],
    ['to is not a calendar day', '?to=2026-02-30', 'query.to'],
    ['from is after to', '?from=2026-04-10&to=2026-04-01', 'query.from'],
    ['from is after today (the default to)', '?from=2026-05-01', 'query.from'],
    ['from is repeated', '?from=2026-04-01&from=2026-04-02', 'query.from'],
  ])('400 when %s', async (_label, query, field) => {
    const response = await service.api('GET', `${path}${query}`)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining(field) })
  })
})

describe('an empty instance', () => {
  it('before any snapshot: zeros and empty trends, not errors', async () => {
    const empty = await startTestService({ clock: () => now })
    try {
      const { status, body } = await empty.api('GET', '/api/admin/insights')
      expect(status).toBe(200)
      expect(insightsSchemaErrors(body)).toEqual([])
      expect(body).toEqual({
        users: { total: 0, active: 0, inactive: 0 },
        flags: { total: 0 },
        userTrends: [],
        flagTrends: [],
        projectFlagTrends: [],
        metricsSummaryTrends: [],
        environmentTypeTrends: [],
      })
    } finally {
      await empty.close()
    }
  })

  it('after a snapshot: zero points, and the default project at full health', async () => {
    const empty = await startTestService({ clock: () => now })
    try {
      await takeInsightsSnapshot(empty.db, now)
      const { body } = await empty.api('GET', '/api/admin/insights')
      expect(insightsSchemaErrors(body)).toEqual([])
      const date = '2026-04-15T23:59:59.999Z'
      expect(body.userTrends).toEqual([{ date, total: 0, active: 0, inactive: 0 }])
      expect(body.flagTrends).toEqual([{ date, total: 0, active: 0, stale: 0, potentiallyStale: 0 }])
      expect(body.projectFlagTrends).toEqual([
        {
          week: '2026-16',
          date,
          project: 'default',
          total: 0,
          active: 0,
          stale: 0,
          potentiallyStale: 0,
          health: 100,
          users: 0,
        },
      ])
      expect(body.metricsSummaryTrends).toEqual([])
      expect(body.environmentTypeTrends).toEqual([])
    } finally {
      await empty.close()
    }
  })
})

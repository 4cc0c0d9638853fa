import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

// Issue 46: a flag's usage from the hourly client metrics, in Unleash's featureUsageSchema and in
// Vexil's last-hour and last-day summary; tokens marked seen by their own metrics posts and by
// the tokens a proxy says it served; the insights snapshot taken on demand.
let service: TestService
let now = new Date('2026-05-01T10:30:00Z')
const tokens: Record<string, { id: number; secret: string }> = {}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

const ok = async (method: string, path: string, options: { body?: unknown; token?: string } = {}) => {
  const response = await service.api(method, path, options)
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}
const seenAt = async (name: string) =>
  (await ok('GET', '/api/admin/api-tokens')).tokens.find((t: { tokenName: string }) => t.tokenName === name).seenAt
const postMetrics = (token: string, start: string, toggles: unknown, servedTokens?: string[]) =>
  service.api('POST', '/api/client/metrics', {
    token,
    body: { appName: 'shop', instanceId: 'i-1', bucket: { start, stop: now.toISOString(), toggles, servedTokens } },
  })

beforeAll(async () => {
  service = await startTestService({ clock: () => now })
  await createFlag(service, 'default', 'usage.banner')
  await createFlag(service, 'default', 'usage.quiet')
  for (const [name, type] of [
    ['proxy-client', 'client'],
    ['web-frontend', 'frontend'],
  ] as const) {
    const body = await ok('POST', '/api/admin/api-tokens', {
      body: { tokenName: name, type, environment: 'development' },
    })
    tokens[name] = { id: body.id, secret: body.secret }
  }
})
afterAll(() => service.close())

describe('flag usage from the hourly metrics', () => {
  it('GET /api/admin/client-metrics/features/:name is empty before any report', async () => {
    expect(await ok('GET', '/api/admin/client-metrics/features/usage.banner')).toEqual({
      version: 1,
      maturity: 'stable',
      featureName: 'usage.banner',
      lastHourUsage: [],
      seenApplications: [],
    })
    expect((await service.api('GET', '/api/admin/client-metrics/features/no.such.flag')).status).toBe(404)
  })

  it('counts the last hour per environment and hour, and the last day with variants', async () => {
    const client = tokens['proxy-client']!.secret
    now = new Date('2026-04-30T12:10:00Z')
    expect((await postMetrics(client, '2026-04-30T12:00:00Z', { 'usage.banner': { yes: 100, no: 1 } })).status).toBe(
      202,
    )
    now = new Date('2026-05-01T09:20:00Z')
    await postMetrics(client, '2026-05-01T09:10:00Z', { 'usage.banner': { yes: 5, no: 2, variants: { blue: 4 } } })
    now = new Date('2026-05-01T10:30:00Z')
    await postMetrics(client, '2026-05-01T10:20:00Z', {
      'usage.banner': { yes: 3, no: 0, variants: { blue: 1, red: 2 } },
    })

    expect(await ok('GET', '/api/admin/client-metrics/features/usage.banner')).toEqual({
      version: 1,
      maturity: 'stable',
      featureName: 'usage.banner',
      lastHourUsage: [
        { environment: 'development', timestamp: '2026-05-01T10:00:00.000Z', yes: 3, no: 0 },
        { environment: 'development', timestamp: '2026-05-01T09:00:00.000Z', yes: 5, no: 2 },
      ],
      seenApplications: ['shop'],
    })
    expect(await ok('GET', '/api/admin/client-metrics/usage')).toEqual({
      hourSince: '2026-05-01T09:00:00.000Z',
      daySince: '2026-04-30T10:00:00.000Z',
      features: [
        {
          featureName: 'usage.banner',
          lastHour: { yes: 8, no: 2, variants: { blue: 5, red: 2 } },
          lastDay: { yes: 108, no: 3, variants: { blue: 5, red: 2 } },
        },
      ],
    })
    const one = await ok('GET', '/api/admin/client-metrics/usage?featureName=usage.quiet')
    expect(one.features).toEqual([])
  })
})

describe('tokens seen through a proxy', () => {
  it('a metrics post marks its own token, every time, and the served tokens by their hashes', async () => {
    expect(await seenAt('web-frontend')).toBeNull()
    now = new Date('2026-05-01T10:40:00Z')
    const client = tokens['proxy-client']!.secret
    const served = [sha256(tokens['web-frontend']!.secret), sha256('default:development.made-up')]
    expect((await postMetrics(client, '2026-05-01T10:39:00Z', {}, served)).status).toBe(202)
    expect(await seenAt('proxy-client')).toBe('2026-05-01T10:40:00.000Z')
    expect(await seenAt('web-frontend')).toBe('2026-05-01T10:40:00.000Z')
    now = new Date('2026-05-01T10:40:20Z')
    await postMetrics(client, '2026-05-01T10:40:00Z', {})
    expect(await seenAt('proxy-client')).toBe('2026-05-01T10:40:20.000Z')
    expect(await seenAt('web-frontend')).toBe('2026-05-01T10:40:00.000Z')
  })

  it('refuses served tokens that are not SHA-256 hex (no secret is taken in their place)', async () => {
    const client = tokens['proxy-client']!.secret
    const response = await postMetrics(client, '2026-05-01T10:40:00Z', {}, [tokens['web-frontend']!.secret])
    expect(response.status).toBe(400)
  })
})

describe('insights snapshots on demand', () => {
  it('says when the last snapshot was taken and when the next is due, and takes one now', async () => {
    const before = await ok('GET', '/api/admin/insights/snapshot')
    expect(before).toMatchObject({ schedule: 'daily at 23:55 UTC', nextAt: '2026-05-01T23:55:00.000Z' })
    now = new Date('2026-05-01T11:00:00Z')
    expect(await ok('POST', '/api/admin/insights/snapshot')).toEqual({
      schedule: 'daily at 23:55 UTC',
      lastTakenAt: '2026-05-01T11:00:00.000Z',
      nextAt: '2026-05-01T23:55:00.000Z',
    })
  })

  it("the Flags total and today's point of its chart agree after a flag is made between snapshots", async () => {
    now = new Date('2026-05-01T11:05:00Z')
    await createFlag(service, 'default', 'usage.later')
    const insights = await ok('GET', '/api/admin/insights')
    expect(insights.flags.total).toBe(3)
    expect(insights.flagTrends.at(-1)).toMatchObject({ date: '2026-05-01T23:59:59.999Z', total: 3 })
  })
})

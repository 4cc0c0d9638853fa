import { existsSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { createEngine } from '@vexil/engine'
import { afterAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../src/logger.js'
import { DEMO_CREDENTIALS_FILE, type DemoCredentials } from '../src/seed/demo.js'
import { type RunningService, startService } from '../src/server.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

const data = tempDir('restart')
afterAll(() => data.remove())

const start = () =>
  startService({ port: 0, host: '127.0.0.1', dataDir: data.path, seedDemo: true, logger: silentLogger, env: {} })
const get = async (service: RunningService, path: string, token: string) => {
  const response = await fetch(`${service.url}${path}`, { headers: { authorization: token } })
  return { status: response.status, body: await response.json() }
}

/** Row counts of every table: what a restart must keep. */
async function snapshot(service: RunningService, token: string) {
  const [features, segments, events, tokens, users] = await Promise.all([
    get(service, '/api/admin/projects/demo/features', token),
    get(service, '/api/admin/segments', token),
    get(service, '/api/admin/events?limit=1000', token),
    get(service, '/api/admin/api-tokens', token),
    get(service, '/api/admin/user-admin', token),
  ])
  return {
    features: features.body.features,
    segments: segments.body.segments,
    events: events.body.totalEvents, // seenAt moves on every start (first request of a new process).
    tokens: tokens.body.tokens.map(({ seenAt: _seen, ...token }: { seenAt: string }) => token),
    users: users.body.users,
  }
}

describe('startService on PGlite in a data folder, with the demo', () => {
  let first: DemoCredentials
  let before: Awaited<ReturnType<typeof snapshot>>

  it('seeds a demo project on first run, with credentials that work as-is', async () => {
    const service = await start()
    try {
      first = service.demo as DemoCredentials
      expect(first.adminToken).toMatch(/^\*:\*\./)
      expect(first.clientToken).toMatch(/^\*:development\./)
      expect(first.proxyClientKey).toMatch(/^proxy-/)
      const file = join(data.path, DEMO_CREDENTIALS_FILE)
      expect(statSync(file).mode & 0o777).toBe(0o600)

      const payload = await get(service, '/api/client/features?project=demo', first.clientToken)
      expect(payload.status).toBe(200)
      const strategies = new Set(
        payload.body.features.flatMap((f: { strategies: { name: string }[] }) => f.strategies.map((s) => s.name)),
      )
      expect([...strategies].sort()).toEqual([
        'applicationHostname',
        'default',
        'flexibleRollout',
        'gradualRolloutRandom',
        'gradualRolloutSessionId',
        'gradualRolloutUserId',
        'remoteAddress',
        'userWithId',
      ])
      expect(payload.body.features.every((f: { enabled: boolean }) => f.enabled)).toBe(true)
      expect(payload.body.segments).toHaveLength(1)
      expect(payload.body.features.some((f: { dependencies?: unknown[] }) => f.dependencies)).toBe(true)
      expect(
        payload.body.features.some((f: { variants: { payload?: unknown }[] }) => f.variants.some((v) => v.payload)),
      ).toBe(true)
      const engine = createEngine()
      expect(engine.load(payload.body)).toEqual([])
      expect(engine.isEnabled('beta-dashboard', { userId: 'alice' })).toBe(true)
      expect(engine.getVariant('theme', { userId: 'x' }).enabled).toBe(true)

      // A person, seen at the seed: the insights of a fresh instance are not all zeros.
      const users = (await get(service, '/api/admin/user-admin', first.adminToken)).body.users
      expect(users).toEqual([
        expect.objectContaining({
          name: 'Dana Demo',
          email: 'dana.demo@example.com',
          accountType: 'User',
          seenAt: expect.any(String),
        }),
      ])
      const insights = (await get(service, '/api/admin/insights', first.adminToken)).body
      expect(insights.users).toEqual({ total: 1, active: 1, inactive: 0 })
      expect(insights.userTrends).toEqual([expect.objectContaining({ total: 1, active: 1 })])

      // Change something through the admin API, so the restart has more than the seed to keep.
      const made = await fetch(`${service.url}/api/admin/projects/demo/features`, {
        method: 'POST',
        headers: { authorization: first.adminToken, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'made-before-restart' }),
      })
      expect(made.status).toBe(201)
      before = await snapshot(service, first.adminToken)
      expect((await get(service, '/health', '')).body).toEqual({ health: 'GOOD' })
    } finally {
      await service.close()
    }
  })

  it('a restart keeps every row and the same demo credentials, and does not seed twice', async () => {
    const service = await start()
    try {
      expect(service.demo).toEqual(first)
      expect(await snapshot(service, first.adminToken)).toEqual(before)
    } finally {
      await service.close()
    }
  })

  it('makes new demo tokens when the credentials file is gone but the database is not', async () => {
    unlinkSync(join(data.path, DEMO_CREDENTIALS_FILE))
    const service = await start()
    try {
      const next = service.demo as DemoCredentials
      expect(next.adminToken).not.toBe(first.adminToken)
      expect(existsSync(join(data.path, DEMO_CREDENTIALS_FILE))).toBe(true)
      expect((await get(service, '/api/client/features', next.clientToken)).status).toBe(200)
      const after = await snapshot(service, next.adminToken)
      expect(after.features).toEqual(before.features)
      expect(after.events).toBe(before.events)
    } finally {
      await service.close()
    }
  })
})

import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, parseServiceConfig } from '../src/config.js'
import { createPgliteDatabase } from '../src/db/pglite.js'
import { migrate } from '../src/db/migrate.js'
import { MIGRATIONS } from '../src/db/migrations/index.js'
import { syncInitApiTokens } from '../src/domain/init-api-tokens.js'
import { silentLogger } from '../src/logger.js'
import { type RunningService, startService } from '../src/server.js'
import { displayToken, hashSecret } from '../src/token-secrets.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

// INIT_ADMIN_API_TOKENS and INIT_CLIENT_API_TOKENS are the deployment's list of bootstrap
// tokens: each secret long enough to resist guessing, and a token taken off the list stops
// working at the next start. Tokens made through the API are never touched.
const secret = (seed: string) => seed.repeat(40).slice(0, 40)
const ADMIN_A = `*:*.${secret('admin-a-')}`
const ADMIN_B = `*:*.${secret('admin-b-')}`
const CLIENT = `default:development.${secret('client-')}`

function configProblems(env: NodeJS.ProcessEnv): string {
  try {
    parseServiceConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error('expected a ConfigError')
}

describe('INIT_* token secrets are at least 32 characters', () => {
  it.each([
    ['INIT_ADMIN_API_TOKENS', { INIT_ADMIN_API_TOKENS: `${ADMIN_A},*:*.short-secret-1` }],
    ['INIT_CLIENT_API_TOKENS', { INIT_CLIENT_API_TOKENS: 'default:development.0123456789abcdef0123456789abcde' }],
  ])('a shorter one stops the start naming %s, without printing the secret', (name, env) => {
    const message = configProblems(env)
    expect(message).toContain(name)
    expect(message).toContain('32')
    expect(message).not.toContain('short-secret-1')
    expect(message).not.toContain('0123456789abcdef')
  })

  it('32 characters are enough', () => {
    const config = parseServiceConfig({ INIT_CLIENT_API_TOKENS: 'default:development.0123456789abcdef0123456789abcdef' })
    expect(config.initClientTokens).toHaveLength(1)
  })

  it('a token not in the form project:environment.secret is named by position, not printed', () => {
    const message = configProblems({ INIT_ADMIN_API_TOKENS: `${ADMIN_A},not-a-token-secret-value` })
    expect(message).toContain('INIT_ADMIN_API_TOKENS')
    expect(message).not.toContain('not-a-token')
  })
})

describe('a token taken off INIT_* stops working at the next start', () => {
  const data = tempDir('init-tokens')
  afterAll(() => data.remove())
  const start = (env: NodeJS.ProcessEnv) => startService({ port: 0, host: '127.0.0.1', dataDir: data.path, logger: silentLogger, env })
  const status = async (service: RunningService, token: string) =>
    (await fetch(`${service.url}/api/client/features`, { headers: { authorization: token } })).status
  const adminStatus = async (service: RunningService, token: string) =>
    (await fetch(`${service.url}/api/admin/projects`, { headers: { authorization: token } })).status
  let made = ''

  it('first start: every listed token works; a token made through the API besides', async () => {
    const service = await start({ INIT_ADMIN_API_TOKENS: `${ADMIN_A},${ADMIN_B}`, INIT_CLIENT_API_TOKENS: CLIENT })
    try {
      expect(await adminStatus(service, ADMIN_A)).toBe(200)
      expect(await adminStatus(service, ADMIN_B)).toBe(200)
      expect(await status(service, CLIENT)).toBe(200)
      const response = await fetch(`${service.url}/api/admin/api-tokens`, {
        method: 'POST',
        headers: { authorization: ADMIN_B, 'content-type': 'application/json' },
        body: JSON.stringify({ tokenName: 'made-by-api', type: 'client', environment: 'development' }),
      })
      expect(response.status).toBe(201)
      made = (await response.json()).secret
      expect(await status(service, made)).toBe(200)
    } finally {
      await service.close()
    }
  })

  it('second start with ADMIN_B and the client token removed: they are 401, the rest work, the event log says why', async () => {
    const service = await start({ INIT_ADMIN_API_TOKENS: ADMIN_A })
    try {
      expect(await adminStatus(service, ADMIN_A)).toBe(200)
      expect(await adminStatus(service, ADMIN_B)).toBe(401)
      expect(await status(service, CLIENT)).toBe(401)
      expect(await status(service, made)).toBe(200)
      const events = await (await fetch(`${service.url}/api/admin/events?type=api-token-deleted`, { headers: { authorization: ADMIN_A } })).json()
      expect(events.events).toHaveLength(2)
      expect(events.events.every((e: { createdBy: string }) => e.createdBy === 'system')).toBe(true)
      expect(events.events.map((e: { preData: { tokenName: string } }) => e.preData.tokenName).sort()).toEqual(['admin-init-token', 'client-init-token'])
    } finally {
      await service.close()
    }
  })

  it('third start with INIT_* unset: the INIT tokens are gone, the API one stays', async () => {
    const service = await start({})
    try {
      expect(await status(service, made)).toBe(200)
      expect(await adminStatus(service, ADMIN_A)).toBe(401)
    } finally {
      await service.close()
    }
  })
})

describe('tokens an older version created from INIT_*', () => {
  it('are recognised after the upgrade (named *-init-token, no api-token-created event) and removed when unlisted', async () => {
    const db = await createPgliteDatabase()
    try {
      await migrate(db, MIGRATIONS.filter((m) => m.version <= 5))
      const now = new Date()
      // What the old insertInitTokens wrote (version 5's columns), and no event.
      const legacy = async (token: string, name: string) => (await db.query<{ id: number }>(
        `INSERT INTO api_tokens (secret_hash, display, token_name, type, environment, projects, created_at)
         VALUES ($1, $2, $3, 'admin', '*', '{*}', $4) RETURNING id`,
        [hashSecret(token), displayToken(token), name, now],
      ))[0]?.id as number
      await legacy(ADMIN_A, 'admin-init-token')
      await legacy(ADMIN_B, 'admin-init-token')
      // An API token someone happened to name the same way: created through the API, so with its event.
      const api = await legacy(`*:*.${secret('api-')}`, 'admin-init-token')
      await db.query(`INSERT INTO events (type, created_by, created_at, data) VALUES ('api-token-created', 'admin', now(), $1)`, [JSON.stringify({ id: api })])
      await migrate(db)
      await syncInitApiTokens(db, parseServiceConfig({ INIT_ADMIN_API_TOKENS: ADMIN_A }), () => now, silentLogger)
      const rows = await db.query<{ id: number }>('SELECT id FROM api_tokens ORDER BY id')
      expect(rows.map((row) => row.id)).toEqual([1, api])
    } finally {
      await db.close()
    }
  })
})

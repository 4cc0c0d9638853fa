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
    const config = parseServiceConfig({
      INIT_CLIENT_API_TOKENS: 'default:development.0123456789abcdef0123456789abcdef',
    })
    expect(config.initClientTokens).toHaveLength(1)
  })

  it('a token not in the form project:environment.secret is named by position, not printed', () => {
    const message = configProblems({ INIT_ADMIN_API_TOKENS: `${ADMIN_A},not-a-token-secret-value` })
    expect(message).toContain('INIT_ADMIN_API_TOKENS')
    expect(message).not.toContain('not-a-token')
  })
})

describe('INIT_* token secrets that are placeholders stop the start', () => {
  // The example manifests' old text: 44 characters, so the length floor let it through.
  it.each([
    ['INIT_ADMIN_API_TOKENS', '*:*.replace-with-32-or-more-characters-of-secret'],
    ['INIT_CLIENT_API_TOKENS', '*:production.replace-with-32-or-more-characters-of-secret-too'],
    ['INIT_ADMIN_API_TOKENS', '*:*.CHANGE_ME_TO_A_SECRET_OF_32_CHARACTERS_OR_MORE'],
    ['INIT_ADMIN_API_TOKENS', '*:*.changeme-changeme-changeme-changeme'],
    ['INIT_ADMIN_API_TOKENS', '*:*.this-is-an-example-admin-secret-for-the-docs'],
    ['INIT_CLIENT_API_TOKENS', 'default:development.Placeholder.Secret.Of.Enough.Length'],
  ])('%s=%s is refused, naming the variable and the token, never the secret', (name, token) => {
    const message = configProblems({ [name]: token })
    expect(message).toContain(`${name}: token 1 (${token.slice(0, token.indexOf('.'))}.…)`)
    expect(message).toContain('placeholder')
    expect(message).not.toContain(token.slice(token.indexOf('.') + 1))
  })

  it.each(['x'.repeat(40), '0'.repeat(32)])('a secret of one character repeated (%s) is refused', (value) => {
    const message = configProblems({ INIT_ADMIN_API_TOKENS: `*:*.${value}` })
    expect(message).toContain('INIT_ADMIN_API_TOKENS: token 1 (*:*.…)')
    expect(message).toContain('placeholder')
  })

  it('what openssl rand -hex 16 and -base64 24 print is accepted', () => {
    const config = parseServiceConfig({
      INIT_ADMIN_API_TOKENS: '*:*.4f0c2a9be1d7836c5e0b9a7d21f4c6e8,*:*.q3Zr+8fKx/2LmN0pVbY7TcWsHu1E9dGa',
    })
    expect(config.initAdminTokens).toHaveLength(2)
  })
})

describe('a token taken off INIT_* stops working at the next start', () => {
  const data = tempDir('init-tokens')
  afterAll(() => data.remove())
  const start = (env: NodeJS.ProcessEnv) =>
    startService({ port: 0, host: '127.0.0.1', dataDir: data.path, logger: silentLogger, env })
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
      const events = await (
        await fetch(`${service.url}/api/admin/events?type=api-token-deleted`, { headers: { authorization: ADMIN_A } })
      ).json()
      expect(events.events).toHaveLength(2)
      expect(events.events.every((e: { createdBy: string }) => e.createdBy === 'system')).toBe(true)
      expect(events.events.map((e: { preData: { tokenName: string } }) => e.preData.tokenName).sort()).toEqual([
        'admin-init-token',
        'client-init-token',
      ])
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
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 5),
      )
      const now = new Date()
      // What the old insertInitTokens wrote (version 5's columns), and no event.
      const legacy = async (token: string, name: string) =>
        (
          await db.query<{ id: number }>(
            `INSERT INTO api_tokens (secret_hash, display, token_name, type, environment, projects, created_at)
         VALUES ($1, $2, $3, 'admin', '*', '{*}', $4) RETURNING id`,
            [hashSecret(token), displayToken(token), name, now],
          )
        )[0]?.id as number
      await legacy(ADMIN_A, 'admin-init-token')
      await legacy(ADMIN_B, 'admin-init-token')
      // An API token someone happened to name the same way: created through the API, so with its event.
      const api = await legacy(`*:*.${secret('api-')}`, 'admin-init-token')
      await db.query(
        `INSERT INTO events (type, created_by, created_at, data) VALUES ('api-token-created', 'admin', now(), $1)`,
        [JSON.stringify({ id: api })],
      )
      await migrate(db)
      await syncInitApiTokens(db, parseServiceConfig({ INIT_ADMIN_API_TOKENS: ADMIN_A }), () => now, silentLogger)
      const rows = await db.query<{ id: number }>('SELECT id FROM api_tokens ORDER BY id')
      expect(rows.map((row) => row.id)).toEqual([1, api])
    } finally {
      await db.close()
    }
  })
})

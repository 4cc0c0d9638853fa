// The service the fuzz runs against, and the credentials it calls with: one of every kind the
// authorization matrix knows, valid or not. Row ids start at offsets drawn from the seed, so no
// id the fuzz generates (small numbers, boundaries such as 2147483647) names a credential or a
// fixture: the fuzz reaches only what it is told about (the playground), and its admin calls can
// not delete the credentials the run depends on.
import type { Database } from '../../src/db/database.js'
import { migrate } from '../../src/db/migrate.js'
import { createPgliteDatabase } from '../../src/db/pglite.js'
import type { Access, RouteSpec } from '../../src/routes/api-router.js'
import { insertApiToken } from '../../src/store/api-tokens.js'
import { newApiTokenSecret } from '../../src/token-secrets.js'
import { startTestService, type TestService } from './service.js'

/** The kinds of access a credential has, by what the service must admit it to. */
export type Grant = Exclude<Access, 'public'>

export interface FuzzCredential {
  label: string
  /** The Authorization header as sent, or undefined for none. The signal token changes when the playground re-creates it. */
  header: string | undefined
  /** The secret alone, for valid tokens, which the fuzz spells in several ways. */
  secret?: string
  grants: Grant[]
  /** Holds no valid token at all: no answer to it may carry data. */
  anonymous: boolean
}

export interface FuzzWorld {
  service: TestService
  db: Database
  port: number
  credentials: FuzzCredential[]
  /** Routes whose handler ran (their access check passed) since the last `takeHandled`. */
  takeHandled(): RouteSpec[]
  close(): Promise<void>
}

/** The first id of the first table: far above the numbers the fuzz generates. */
function idBase(seed: number): number {
  return 100_000_000 + (Math.abs(seed) % 500_000_000)
}

/** Starts the service over a fresh PGlite whose ids start at `idBase(seed)`, and makes the credentials. */
export async function createFuzzWorld(seed: number): Promise<FuzzWorld> {
  const db = await createPgliteDatabase()
  await migrate(db)
  await shiftIdSequences(db, idBase(seed))
  let handled: RouteSpec[] = []
  const service = await startTestService({
    db,
    // Seen-at marks are written once an hour: reading a fixture through its own token before the
    // snapshot marks it once, so the same read afterwards changes nothing the snapshot shows.
    userSeenThrottleMs: 3_600_000,
    // Most signals get past the rate limit (1 a second by default) to the payload's checks.
    env: { SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: '1000' },
    onRouteHandled: (route) => handled.push(route),
  })
  return {
    service,
    db,
    port: Number(new URL(service.url).port),
    credentials: await makeCredentials(service),
    takeHandled() {
      const taken = handled
      handled = []
      return taken
    },
    async close() {
      await service.close()
      await db.close()
    },
  }
}

/**
 * Every id sequence (serial, bigserial) continues at its own offset from `base`, ten million
 * apart: an id of one kind (a segment's) put where another is expected (a user's) names nothing
 * either, so only the playground's own ids reach anything. The last start stays below int4's limit.
 */
async function shiftIdSequences(db: Database, base: number): Promise<void> {
  const sequences = await db.query<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_class c WHERE c.relkind = 'S' ORDER BY 1`,
  )
  for (const [i, { name }] of sequences.entries())
    await db.query('SELECT setval($1::regclass, $2)', [name, base + i * 10_000_000])
}

/** An admin call that must succeed: setup, not fuzz. */
export async function ok(
  service: TestService,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<any> {
  const response = await service.api(method, path, {
    ...(body === undefined ? {} : { body }),
    ...(token ? { token } : {}),
  })
  if (response.status >= 300)
    throw new Error(`setup: ${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

async function makeCredentials(service: TestService): Promise<FuzzCredential[]> {
  const valid = (label: string, secret: string, grants: Grant[]): FuzzCredential => ({
    label,
    header: secret,
    secret,
    grants,
    anonymous: false,
  })
  const anonymous = (label: string, header: string | undefined): FuzzCredential => ({
    label,
    header,
    grants: [],
    anonymous: true,
  })
  const personal = async (rootRole: string) => {
    const user = await ok(service, 'POST', '/api/admin/user-admin', {
      email: `fuzz-${rootRole.toLowerCase()}@example.com`,
      rootRole,
    })
    return (await ok(service, 'POST', `/api/admin/user-admin/${user.id}/tokens`, { description: 'fuzz' }))
      .secret as string
  }
  const apiToken = async (type: string, extra: Record<string, unknown> = {}) =>
    (await ok(service, 'POST', '/api/admin/api-tokens', { tokenName: `fuzz-${type}`, type, ...extra })).secret as string
  const revoked = await ok(service, 'POST', '/api/admin/api-tokens', { tokenName: 'fuzz-revoked', type: 'admin' })
  await ok(service, 'DELETE', `/api/admin/api-tokens/${revoked.id}`)
  const expired = newApiTokenSecret('*', '*')
  await insertApiToken(
    service.db,
    {
      secret: expired,
      tokenName: 'fuzz-expired',
      type: 'admin',
      environment: '*',
      projects: ['*'],
      expiresAt: new Date(Date.now() - 60_000),
    },
    new Date(),
  )
  const admin = service.admin
  // Environment names may hold dots: a token's scope never comes from splitting its text.
  await ok(service, 'POST', '/api/admin/environments', { name: 'fuzz.eu', type: 'production' })
  return [
    anonymous('no credential', undefined),
    anonymous('garbage', 'garbage'),
    anonymous('empty Bearer', 'Bearer '),
    anonymous('expired admin token', expired),
    anonymous('revoked admin token', revoked.secret),
    anonymous('admin token in upper case', admin.toUpperCase()),
    anonymous('Basic scheme', `Basic ${Buffer.from(`admin:${admin}`).toString('base64')}`),
    anonymous('Bearer twice', `Bearer Bearer ${admin}`),
    anonymous('Token scheme', `Token ${admin}`),
    anonymous('admin token with a suffix', `${admin},x`),
    anonymous('huge garbage', 'x'.repeat(6_000)),
    valid('client token', await apiToken('client', { environment: 'development' }), ['client']),
    valid('backend token', await apiToken('backend', { environment: 'development' }), ['client']),
    valid('frontend token', await apiToken('frontend', { environment: 'development' }), []),
    valid('client token of a dotted environment', await apiToken('client', { environment: 'fuzz.eu' }), ['client']),
    valid('frontend token of a dotted environment', await apiToken('frontend', { environment: 'fuzz.eu' }), []),
    valid('viewer personal token', await personal('Viewer'), ['personal', 'user']),
    valid('editor personal token', await personal('Editor'), ['personal', 'user']),
    valid('admin personal token', await personal('Admin'), ['personal', 'user', 'admin']),
    valid('admin token', admin, ['user', 'admin']),
    // The playground sets the signal endpoint's token (fuzz-playground.ts).
    valid('signal token', '', ['signal']),
  ]
}

/** Whether `credential` may call a route of `access`. */
export function admits(access: Access, credential: FuzzCredential): boolean {
  return access === 'public' || credential.grants.includes(access as Grant)
}

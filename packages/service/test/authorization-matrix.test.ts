// The authorization matrix (issue 13), generated from the route table: every registered route x
// every kind of credential x many spellings of its path. For each cell it asserts the status the
// route's declared access gives that credential, and that no handler ever runs for a caller the
// access does not admit. A new route is covered by registering it: nothing here lists routes.
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Access, RouteSpec } from '../src/routes/api-router.js'
import { insertApiToken } from '../src/store/api-tokens.js'
import { newApiTokenSecret } from '../src/token-secrets.js'
import { startTestService, type TestService } from './helpers/service.js'

/** The kinds of access a credential has, by what the service must admit it to. */
type Grant = 'client' | 'personal' | 'user' | 'admin' | 'signal'

interface Credential {
  label: string
  /** The Authorization header, or undefined for none. */
  header: string | undefined
  grants: Grant[]
  /** What a route it may not call answers: 401 (no valid credential) or 403 (valid, no permission). */
  denied: 401 | 403
}

const SIGNAL_ENDPOINT = 'matrix-endpoint'

/** The route's concrete path: parameters name nothing that exists, so no call destroys a fixture. */
function concretePath(route: RouteSpec): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (route.access === 'signal' && name === 'name') return SIGNAL_ENDPOINT
    return /id$/i.test(name) || name === 'token' ? '987654' : 'matrix-none'
  })
}

/** Other spellings of a path: each must reach the same route or none, never another one. */
const SPELLINGS: [label: string, spell: (path: string) => string][] = [
  ['as is', (p) => p],
  ['percent-encoded letter', (p) => p.replace(/^\/(\w)/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`)],
  [
    'encoded letter in the second segment',
    (p) =>
      p.replace(
        /^(\/[^/]+\/)(\w)/,
        (_, head: string, c: string) => `${head}%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
  ],
  ['%2F for a slash', (p) => p.replace(/^(\/[^/]+)\//, '$1%2F')],
  ['%252F for a slash', (p) => p.replace(/^(\/[^/]+)\//, '$1%252F')],
  ['doubled slash', (p) => p.replace(/^(\/[^/]+)\//, '$1//')],
  ['/./ segment', (p) => p.replace(/^(\/[^/]+)\//, '$1/./')],
  ['/../ segment', (p) => p.replace(/^(\/[^/]+)\//, '$1/x/../')],
  ['encoded dot segment', (p) => p.replace(/^(\/[^/]+)\//, '$1/x/%2e%2e/')],
  ['trailing slash', (p) => `${p}/`],
  ['upper case', (p) => p.toUpperCase()],
  ['";x" suffix', (p) => `${p};x`],
  ['backslash', (p) => p.replace(/^(\/[^/]+)\//, '$1\\')],
  ['encoded ? then ../', (p) => `${p}%3F/../../health`],
  ['encoded # suffix', (p) => `${p}%23x`],
]

let service: TestService
let credentials: Credential[]
const handled: { route: RouteSpec; grantOk: boolean }[] = []
/** The credential of the request in flight, read by the route hook (requests run one at a time). */
let current: Credential | undefined
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

beforeAll(async () => {
  service = await startTestService({
    onRouteHandled: (route) => handled.push({ route, grantOk: current !== undefined && admits(route.access, current) }),
    env: { SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: '1000' },
  })
  const { api, db } = service
  const ok = async (method: string, path: string, body: unknown, token?: string) => {
    const response = await api(method, path, { body, ...(token ? { token } : {}) })
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
    return response.body
  }
  await ok('POST', '/api/admin/projects', { id: 'other', name: 'Other' })
  const personal = async (rootRole: string) => {
    const user = await ok('POST', '/api/admin/user-admin', { email: `${rootRole.toLowerCase()}@example.com`, rootRole })
    return (await ok('POST', `/api/admin/user-admin/${user.id}/tokens`, { description: 'matrix' })).secret as string
  }
  const apiToken = async (type: string, extra: Record<string, unknown> = {}) =>
    (await ok('POST', '/api/admin/api-tokens', { tokenName: `matrix-${type}`, type, ...extra })).secret as string
  const revoked = await ok('POST', '/api/admin/api-tokens', { tokenName: 'revoked', type: 'admin' })
  await ok('DELETE', `/api/admin/api-tokens/${revoked.id}`, undefined)
  const expired = newApiTokenSecret('*', '*')
  await insertApiToken(
    db,
    {
      secret: expired,
      tokenName: 'expired',
      type: 'admin',
      environment: '*',
      projects: ['*'],
      expiresAt: new Date(Date.now() - 60_000),
    },
    new Date(),
  )
  const endpoint = await ok('POST', '/api/admin/signal-endpoints', { name: SIGNAL_ENDPOINT })
  const signal = (await ok('POST', `/api/admin/signal-endpoints/${endpoint.id}/tokens`, { name: 'matrix' }))
    .token as string

  credentials = [
    { label: 'no credential', header: undefined, grants: [], denied: 401 },
    { label: 'garbage', header: 'garbage', grants: [], denied: 401 },
    { label: 'empty Bearer', header: 'Bearer ', grants: [], denied: 401 },
    { label: 'expired admin token', header: expired, grants: [], denied: 401 },
    { label: 'revoked admin token', header: revoked.secret, grants: [], denied: 401 },
    { label: 'admin token in another case', header: service.admin.toUpperCase(), grants: [], denied: 401 },
    { label: 'signal token', header: `Bearer ${signal}`, grants: ['signal'], denied: 401 },
    {
      label: 'client token',
      header: await apiToken('client', { environment: 'development', projects: ['default'] }),
      grants: ['client'],
      denied: 403,
    },
    {
      label: 'client token of another project and environment',
      header: await apiToken('client', { environment: 'production', projects: ['other'] }),
      grants: ['client'],
      denied: 403,
    },
    {
      label: 'backend token',
      header: await apiToken('backend', { environment: 'development' }),
      grants: ['client'],
      denied: 403,
    },
    {
      label: 'frontend token',
      header: await apiToken('frontend', { environment: 'development' }),
      grants: [],
      denied: 403,
    },
    { label: 'viewer personal token', header: await personal('Viewer'), grants: ['personal', 'user'], denied: 403 },
    { label: 'editor personal token', header: await personal('Editor'), grants: ['personal', 'user'], denied: 403 },
    {
      label: 'admin personal token',
      header: await personal('Admin'),
      grants: ['personal', 'user', 'admin'],
      denied: 403,
    },
    { label: 'admin token', header: `Bearer ${service.admin}`, grants: ['user', 'admin'], denied: 403 },
  ]
}, 60_000)

afterAll(async () => {
  agent.destroy()
  await service?.close()
})

function admits(access: Access, credential: Credential): boolean {
  return access === 'public' || credential.grants.includes(access)
}

/** The status a caller without access gets: signal routes check the endpoint's tokens only, so any other credential is 401. */
function deniedStatus(access: Access, credential: Credential): number {
  return access === 'signal' ? 401 : credential.denied
}

/** One raw request: the path goes on the wire exactly as written (fetch would normalise it). */
function send(
  method: string,
  path: string,
  authorization: string | undefined,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${service.url}/`,
      { method, path, agent, headers: authorization === undefined ? {} : { authorization } },
      (res) => {
        // A stream (/api/client/streaming) never ends by itself: its status is the answer.
        if (res.headers['content-type'] === 'text/event-stream') {
          res.destroy()
          resolve({ status: res.statusCode ?? 0, body: '' })
          return
        }
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('authorization matrix: every route x every credential x every spelling', () => {
  it('has routes of every access kind, each declared', () => {
    const kinds = new Set(service.routes.map((route) => route.access))
    expect([...kinds].sort()).toEqual(['admin', 'client', 'personal', 'public', 'signal', 'user'])
    expect(service.routes.length).toBeGreaterThan(100)
  })

  it('covers the event log and its search as admin routes', () => {
    const events = service.routes.filter((route) => /^\/api\/admin\/(search\/)?events/.test(route.path))
    expect(events.map((route) => `${route.method} ${route.path} ${route.access}`).sort()).toEqual([
      'GET /api/admin/events admin',
      'GET /api/admin/events/:featureName admin',
      'GET /api/admin/search/events admin',
    ])
  })

  it('answers each cell as the route declares, and runs no handler for a caller it does not admit', async () => {
    const failures: string[] = []
    let cells = 0
    for (const route of service.routes) {
      const canonical = concretePath(route)
      for (const credential of credentials) {
        const allowed = admits(route.access, credential)
        current = credential
        for (const [spelling, spell] of SPELLINGS) {
          const path = spell(canonical)
          const before = handled.length
          const { status } = await send(route.method, path, credential.header)
          cells++
          const ran = handled.slice(before)
          const where = `${route.method} ${path} [${route.access}] as ${credential.label} (${spelling}): ${status}`
          if (ran.some((entry) => !entry.grantOk))
            failures.push(
              `${where}: a handler ran for a caller its route does not admit (${ran.map((e) => `${e.route.method} ${e.route.path}`).join(', ')})`,
            )
          if (status >= 500) failures.push(`${where}: a 5xx`)
          if (spelling === 'as is') {
            if (allowed && (status === 401 || status === 403))
              failures.push(`${where}: refused a caller the route admits`)
            if (!allowed && status !== deniedStatus(route.access, credential))
              failures.push(`${where}: expected ${deniedStatus(route.access, credential)}`)
            if (allowed && route.access !== 'signal' && ran.length !== 1)
              failures.push(`${where}: the handler did not run`)
          } else if (!allowed && status < 400) {
            failures.push(`${where}: a caller without access got a success`)
          }
        }
      }
    }
    current = undefined
    console.log(
      `authorization matrix: ${service.routes.length} routes x ${credentials.length} credentials x ${SPELLINGS.length} spellings = ${cells} requests`,
    )
    expect(failures.slice(0, 30)).toEqual([])
  }, 600_000)

  it('refuses the bypasses found in review', async () => {
    const mint = (path: string, authorization?: string) =>
      service.api('POST', path, { body: { tokenName: 'x', type: 'admin' }, token: authorization ?? null })
    for (const path of [
      '/%61pi/admin/api-tokens',
      '/api/%61dmin/api-tokens',
      '/api/admin/api-tokens%3F/../../../health',
    ]) {
      const { status } = await mint(path)
      expect([400, 401, 404], path).toContain(status)
    }
    expect((await service.api('GET', '/%61pi/admin/api-tokens', { token: null })).status).toBe(401)
    const client = await service.clientToken()
    expect([400, 403, 404]).toContain((await mint('/api/admin/api-tokens%3F/../../client/x', client)).status)
    const list = await service.api('GET', '/api/admin/api-tokens')
    expect(list.body.tokens.filter((t: { tokenName: string }) => t.tokenName === 'x')).toEqual([])
  })
})

describe('the route table', () => {
  it('cannot register a route without an access declaration', async () => {
    const { createApiRouter } = await import('../src/routes/api-router.js')
    const { api } = createApiRouter(async () => {})
    expect(() => api.get('/x', undefined as unknown as Access, () => 'x')).toThrow(/no access declaration/)
    expect(() => api.get('/x', 'everyone' as Access, () => 'x')).toThrow(/no access declaration/)
    api.get('/x', 'public', () => 'x')
    expect(() => api.get('/x', 'admin', () => 'x')).toThrow(/registered twice/)
  })
})

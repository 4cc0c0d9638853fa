// The authorization matrix (docs/architecture.md, "Authorization"): every route of the proxy's route table
// × every kind of credential × spellings of its path, through a real listening proxy. Rows come
// from the table itself, so a route added to it is covered without editing this file.
//
// Each cell asserts the status (a permitted caller gets the route's success status; anyone else
// 401, or 404/400 for a spelling that names no route; never 2xx/3xx) and, through a spy wrapped
// around every handler, which handlers ran: a handler never runs for a caller without permission,
// and it does run for a permitted one (so the spy cannot silently stop counting).
import { request, Agent } from 'node:http'
import { connect } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import type { Access, ProxyAppOptions, RouteDescription } from '@vexil/proxy'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'

const SERVER_TOKEN = 'server-token-7f1e'
const UPSTREAM_TOKEN = 'upstream-token-secret' // what helpers/proxy.ts configures
const BASE = '/edge/v1'
const FEATURES = {
  version: 2,
  features: [
    { name: 'on', enabled: true, strategies: [{ name: 'default' }] },
    { name: 'example', enabled: true, strategies: [{ name: 'default' }] },
  ],
}
// API tokens of the upstream (its POST /edge/validate lists them), for the Unleash API routes.
const FRONTEND_TOKEN = '*:development.frontend-7c21'
const CLIENT_TOKEN = '*:development.client-9d4e'
const ADMIN_TOKEN = '*:*.admin-5a0b'
const VALID_TOKENS = [
  { token: FRONTEND_TOKEN, type: 'frontend', projects: ['*'], environment: 'development' },
  { token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' },
  { token: ADMIN_TOKEN, type: 'admin', projects: ['*'], environment: '*' },
] as const

// --- Credentials ---

type Holder = 'client-key' | 'server-token' | 'frontend-token' | 'client-token'
interface Credential {
  name: string
  /** The key header's value; undefined sends no header. */
  value: string | undefined
  /** What the proxy should take it for, once HTTP has parsed the header. */
  is?: Holder
  /** What OFREP takes it for, where that differs (it reads `Bearer ` before a client key too). */
  ofrep?: Holder
}

const CREDENTIALS: Credential[] = [
  { name: 'none', value: undefined },
  { name: 'garbage', value: 'not-a-key-3b9c' },
  { name: 'empty string', value: '' },
  { name: 'client key', value: CLIENT_KEY, is: 'client-key' },
  { name: 'server-side token', value: SERVER_TOKEN, is: 'server-token' },
  { name: "the upstream's API token", value: UPSTREAM_TOKEN },
  { name: 'client key in upper case', value: CLIENT_KEY.toUpperCase() },
  { name: 'server-side token in upper case', value: SERVER_TOKEN.toUpperCase() },
  // RFC 9110 5.5: whitespace around a field value is not part of it, and Node's parser strips it,
  // so on the wire this is the client key itself.
  { name: 'client key + trailing space', value: `${CLIENT_KEY} `, is: 'client-key' },
  // A no-break space is not HTTP whitespace: a different key.
  { name: 'client key + trailing no-break space', value: `${CLIENT_KEY}\u00a0` },
  { name: 'client key + one more character', value: `${CLIENT_KEY}0` },
  { name: 'Bearer client key', value: `Bearer ${CLIENT_KEY}`, ofrep: 'client-key' },
  { name: 'client key + server token', value: `${CLIENT_KEY},${SERVER_TOKEN}` },
  { name: 'frontend token', value: FRONTEND_TOKEN, is: 'frontend-token' },
  { name: 'Bearer frontend token', value: `Bearer ${FRONTEND_TOKEN}`, is: 'frontend-token' },
  { name: 'client token', value: CLIENT_TOKEN, is: 'client-token' },
  { name: 'admin token', value: ADMIN_TOKEN },
  { name: 'unknown token of the right form', value: '*:development.unknown-0000' },
  { name: 'frontend token in upper case', value: FRONTEND_TOKEN.toUpperCase() },
  { name: 'frontend token + one more character', value: `${FRONTEND_TOKEN}0` },
]

/** The access semantics restated independently of the proxy's code. */
const GRANTED: Record<Access, readonly Holder[]> = {
  open: ['client-key', 'server-token'],
  'client-key': ['client-key'],
  'server-token': ['server-token'],
  'client-key-or-server-token': ['client-key', 'server-token'],
  'frontend-token': ['frontend-token'],
  'client-token': ['client-token'],
  'client-key-or-frontend-token': ['client-key', 'frontend-token'],
}
/** Routes answered as Unleash's API: refusals are 401 or 403 with a JSON message, not the old proxy's 401 text. */
const isTokenRoute = (access: Access) =>
  access === 'frontend-token' || access === 'client-token' || access === 'client-key-or-frontend-token'
const permitted = (access: Access, credential: Credential) => {
  const is = access === 'client-key-or-frontend-token' ? (credential.ofrep ?? credential.is) : credential.is
  return access === 'open' || (is !== undefined && GRANTED[access].includes(is))
}
/** How a refusal's body starts: Unleash's `{ message }`, OFREP's `{ errorDetails }`. */
const refusalStart = (access: Access) =>
  access === 'client-key-or-frontend-token' ? '{"errorDetails":' : '{"message":'

// --- Path spellings ---

interface Spelling {
  name: string
  /** Whether Express-compatible routing (case-insensitive, one optional trailing slash) reaches the route. */
  resolves: boolean
  spell(path: string): string
}

/** `/a/b/c` → the part before the last slash and the last segment (`/a/b`, `c`). */
const lastSlash = (path: string): [string, string] => {
  const at = path.lastIndexOf('/')
  return [path.slice(0, at), path.slice(at + 1)]
}
const atLastSlash = (insert: string) => (path: string) => {
  const [head, tail] = lastSlash(path)
  return `${head}${insert}${tail}`
}

/** `/proxy` → `/%70roxy`: the letter at `at` as a percent-escape. */
const percentEncodeAt = (path: string, at: number) =>
  `${path.slice(0, at)}%${path.charCodeAt(at).toString(16)}${path.slice(at + 1)}`

const SPELLINGS: Spelling[] = [
  { name: 'as is', resolves: true, spell: (p) => p },
  { name: 'trailing slash', resolves: true, spell: (p) => `${p}/` },
  { name: 'upper case', resolves: true, spell: (p) => p.toUpperCase() },
  { name: 'a percent-encoded first letter', resolves: false, spell: (p) => percentEncodeAt(p, 1) },
  {
    name: 'a percent-encoded letter in the last segment',
    resolves: false,
    spell: (p) => percentEncodeAt(p, p.lastIndexOf('/') + 1),
  },
  { name: '%2F for the last slash', resolves: false, spell: atLastSlash('%2F') },
  { name: '%2f for the last slash', resolves: false, spell: atLastSlash('%2f') },
  { name: '%252F for the last slash', resolves: false, spell: atLastSlash('%252F') },
  { name: 'doubled last slash', resolves: false, spell: atLastSlash('//') },
  { name: 'doubled first slash', resolves: false, spell: (p) => `/${p}` },
  { name: '/./ before the last segment', resolves: false, spell: atLastSlash('/./') },
  { name: '/x/../ before the last segment', resolves: false, spell: atLastSlash('/x/../') },
  { name: '/x/%2e%2e/ before the last segment', resolves: false, spell: atLastSlash('/x/%2e%2e/') },
  { name: '/x/.. after the path', resolves: false, spell: (p) => `${p}/x/..` },
  { name: ';x suffix', resolves: false, spell: (p) => `${p};x` },
  { name: 'backslash for the last slash', resolves: false, spell: atLastSlash('\\') },
]

// --- The proxy, with a spy around every handler ---

/** `<cell id>` → the routes (`METHOD path`) whose handlers ran for it. */
const ran = new Map<string, string[]>()
const CELL_HEADER = 'x-matrix-cell'
const instrumentRoute: ProxyAppOptions['instrumentRoute'] = (route, handle) => (event) => {
  const { req } = event.node
  const cell = req.headers[CELL_HEADER]
  if (typeof cell === 'string') (ran.get(cell) ?? ran.set(cell, []).get(cell)!).push(`${req.method} ${route.path}`)
  return handle(event)
}

const upstream = await startFakeUpstream(FEATURES)
upstream.setValidTokens([...VALID_TOKENS])
const options = {
  enableAllEndpoint: true,
  enableOAS: true,
  proxyBasePath: BASE,
  expServerSideSdkConfig: { tokens: [SERVER_TOKEN] },
  tokens: [CLIENT_TOKEN],
  instrumentRoute,
}
const proxy = await startTestProxy(upstream.url, options)
// Before its first payload: the upstream answers 503 until the end of the file.
const notReadyUpstream = await startFakeUpstream(FEATURES)
notReadyUpstream.setValidTokens([...VALID_TOKENS])
notReadyUpstream.fail({ status: 503 }, '/client/features')
const notReady = await startTestProxy(notReadyUpstream.url, { ...options, waitReady: false })
const agent = new Agent({ keepAlive: true, maxSockets: 16 })
afterAll(async () => {
  agent.destroy()
  await proxy.close()
  await notReady.close()
  await upstream.close()
  await notReadyUpstream.close()
})

const ROUTES: readonly RouteDescription[] = proxy.routes
const rowName = (route: RouteDescription) =>
  `${route.method} ${route.path}${route.prefix ? '/…' : ''} (${route.access})`
/** The request path of a route's example, without the base path and query. */
const examplePath = (route: RouteDescription) => (route.example.path ?? route.path).split('?')[0]!
const exampleQuery = (route: RouteDescription) => {
  const at = (route.example.path ?? '').indexOf('?')
  return at === -1 ? '' : route.example.path!.slice(at)
}

interface Answer {
  status: number
  text: string
}

let cells = 0
function send(
  target: TestProxy,
  route: RouteDescription,
  path: string,
  credential: Credential,
): Promise<Answer & { cell: string }> {
  const cell = String(++cells)
  const body = route.method === 'POST' ? Buffer.from(route.example.body ?? '') : undefined
  const headers: Record<string, string> = { [CELL_HEADER]: cell }
  if (credential.value !== undefined) headers.authorization = credential.value
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) })
  const { port } = new URL(target.url)
  return new Promise((resolve, reject) => {
    // node:http sends the path byte for byte (fetch would normalise `..`, `\` and `%2e`).
    const req = request({ host: '127.0.0.1', port, method: route.method, path, headers, agent }, (res) => {
      // A stream (/api/client/streaming) never ends by itself: its status is the answer.
      if (res.headers['content-type'] === 'text/event-stream') {
        res.destroy()
        resolve({ status: res.statusCode ?? 0, text: '', cell })
        return
      }
      let text = ''
      res.setEncoding('latin1')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, cell }))
      res.on('error', reject)
    })
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${route.method} ${path}`)))
    req.on('error', reject)
    req.end(body)
  })
}

/** Runs `tasks` with at most `width` in flight. */
async function inParallel<T>(tasks: Array<() => Promise<T>>, width = 16): Promise<T[]> {
  const results: T[] = new Array(tasks.length)
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++
        results[i] = await tasks[i]!()
      }
    }),
  )
  return results
}

const size = `${ROUTES.length} routes × ${CREDENTIALS.length} credentials × ${SPELLINGS.length} spellings = ${ROUTES.length * CREDENTIALS.length * SPELLINGS.length} requests`
console.log(`authorization matrix: ${size}`)

describe(`authorization matrix (${size})`, () => {
  it('covers every route the table declares, and the table declares the known ones', () => {
    const rows = ROUTES.map((r) => `${r.method} ${r.path} ${r.access}`)
    // Not the definition of the table (a new route needs no edit here), a floor: these exist.
    for (const known of [
      'GET /proxy client-key',
      'POST /proxy/all client-key',
      'POST /proxy/client/metrics client-key-or-server-token',
      'GET /proxy/client/features server-token',
      'GET /proxy/health open',
      'GET /docs open',
    ]) {
      expect(rows).toContain(known)
    }
  })

  it.each(ROUTES.map((route) => [rowName(route), route] as const))('%s', async (_name, route) => {
    const base = `${BASE}${examplePath(route)}`
    const query = exampleQuery(route)
    const tasks = SPELLINGS.flatMap((spelling) =>
      CREDENTIALS.map((credential) => async () => ({
        spelling,
        credential,
        path: spelling.spell(base) + query,
        answer: await send(proxy, route, spelling.spell(base) + query, credential),
      })),
    )
    const results = await inParallel(tasks)
    // Below a `/features` route the last segment is a flag name, decoded as Express decodes a
    // parameter: an encoded letter there names the same flag, a suffix another one (none).
    const inName = ['a percent-encoded letter in the last segment', ';x suffix', 'upper case']
    const resolves = (spelling: Spelling) =>
      spelling.resolves || (route.prefix === 'below' && inName.includes(spelling.name))
    const problems: string[] = []
    const self = `${route.method} ${route.path}`
    for (const { spelling, credential, path, answer } of results) {
      const where = `${route.method} ${JSON.stringify(path)} with ${credential.name}: `
      const allowed = permitted(route.access, credential)
      const handlers = ran.get(answer.cell) ?? []
      // No handler may run for a caller it does not admit, whatever the route matched.
      for (const handler of handlers) {
        const declared = ROUTES.find((r) => `${r.method} ${r.path}` === handler)!
        if (!permitted(declared.access, credential))
          problems.push(`${where}the handler of ${handler} ran (${declared.access})`)
      }
      if (answer.status >= 200 && answer.status < 400 && !(allowed && resolves(spelling)))
        problems.push(`${where}answered ${answer.status}`)
      if (!resolves(spelling)) {
        if (answer.status !== 404 && answer.status !== 400)
          problems.push(`${where}answered ${answer.status}, expected 404 (or 400)`)
        if (handlers.includes(self) && route.access !== 'open')
          problems.push(`${where}the handler ran for a path that names no route`)
        continue
      }
      if (!allowed && isTokenRoute(route.access)) {
        if (answer.status !== 401 && answer.status !== 403)
          problems.push(`${where}answered ${answer.status}, expected 401 or 403`)
        if (route.method !== 'HEAD' && !answer.text.startsWith(refusalStart(route.access)))
          problems.push(`${where}refusal body ${JSON.stringify(answer.text.slice(0, 80))}`)
        continue
      }
      if (!allowed) {
        if (answer.status !== 401) problems.push(`${where}answered ${answer.status}, expected 401`)
        if (answer.status === 401 && route.method !== 'HEAD' && answer.text !== 'Unauthorized')
          problems.push(`${where}401 body ${JSON.stringify(answer.text.slice(0, 80))}`)
        continue
      }
      if (handlers.filter((h) => h === self).length !== 1)
        problems.push(`${where}the handler ran ${handlers.filter((h) => h === self).length} times, expected once`)
      // An open route answers the same to every credential; under another spelling it may be
      // its own 404 (the docs match file names exactly), but only as for everyone.
      // A flag name keeps its case: `/features/EXAMPLE` names another flag (none).
      const expected =
        route.prefix === 'below' && (spelling.name === 'upper case' || spelling.name === ';x suffix')
          ? 404
          : route.access === 'open' && spelling.name !== 'as is'
            ? results.find((r) => r.spelling === spelling && r.credential.value === undefined)!.answer.status
            : route.example.status
      if (answer.status !== expected)
        problems.push(`${where}answered ${answer.status}, expected ${expected}: ${answer.text.slice(0, 120)}`)
      if (route.access === 'open' && expected !== route.example.status && expected !== 404)
        problems.push(`${where}answered ${expected} to everyone`)
    }
    expect(problems, problems.slice(0, 20).join('\n')).toEqual([])
  })
})

describe('before the first payload', () => {
  it.each(ROUTES.map((route) => [rowName(route), route] as const))(
    '%s answers 503 if it waits for flags, else as when ready; no handler runs for the unauthorised',
    async (_name, route) => {
      expect(notReady.proxy.ready).toBe(false)
      const path = `${BASE}${examplePath(route)}${exampleQuery(route)}`
      const problems: string[] = []
      for (const credential of CREDENTIALS) {
        const answer = await send(notReady, route, path, credential)
        const allowed = permitted(route.access, credential)
        const handlers = ran.get(answer.cell) ?? []
        // The old proxy's routes say 503 before checking the key; Unleash's API checks the token first.
        const refused = isTokenRoute(route.access) ? [401, 403] : [401]
        const expected =
          isTokenRoute(route.access) && !allowed
            ? refused
            : route.waitsForFlags
              ? [503]
              : allowed
                ? [route.example.statusBeforeReady ?? route.example.status]
                : refused
        if (!expected.includes(answer.status))
          problems.push(`${credential.name}: ${answer.status}, expected ${expected.join(' or ')}`)
        if (handlers.length !== (allowed && !route.waitsForFlags ? 1 : 0))
          problems.push(`${credential.name}: handlers ran: ${handlers.join(', ') || 'none'}`)
      }
      expect(problems).toEqual([])
    },
  )
})

describe('the key is checked before the body is read', () => {
  const posts = ROUTES.filter((route) => route.method === 'POST' && route.access !== 'open')
  it.each(posts.map((route) => [rowName(route), route] as const))(
    '%s: 401 with a 10 MB body announced and not sent, then the connection closes',
    async (_name, route) => {
      for (const credential of CREDENTIALS.filter((c) => !permitted(route.access, c))) {
        const cell = `head-${++cells}`
        const head = [
          `POST ${BASE}${examplePath(route)} HTTP/1.1`,
          'Host: 127.0.0.1',
          'Content-Type: application/json',
          'Content-Length: 10000000',
          `${CELL_HEADER}: ${cell}`,
          ...(credential.value === undefined ? [] : [`Authorization: ${credential.value}`]),
          '',
          '{"a":',
        ].join('\r\n')
        const { port } = new URL(proxy.url)
        const socket = connect(Number(port), '127.0.0.1')
        socket.setEncoding('latin1')
        const outcome = await new Promise<{ text: string; closed: boolean }>((resolve) => {
          let text = ''
          const timer = setTimeout(() => resolve({ text, closed: false }), 3_000)
          socket.on('data', (chunk: string) => (text += chunk))
          socket.on('close', () => {
            clearTimeout(timer)
            resolve({ text, closed: true })
          })
          socket.on('error', () => undefined)
          socket.write(head)
        })
        socket.destroy()
        expect(outcome.text, credential.name).toMatch(
          isTokenRoute(route.access)
            ? /^HTTP\/1\.1 40[13] (Unauthorized|Forbidden)\r\n/
            : /^HTTP\/1\.1 401 Unauthorized\r\n/,
        )
        expect(outcome.text.toLowerCase(), credential.name).toContain('connection: close')
        expect(outcome.closed, `${credential.name}: the proxy kept the connection open to read the body`).toBe(true)
        expect(ran.get(cell) ?? [], credential.name).toEqual([])
      }
    },
  )
})

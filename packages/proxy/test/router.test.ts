// The proxy's routes on h3's router (docs/architecture.md, "Authorization"): every route declares who may
// call it next to its handler, and a declaration without a valid access kind cannot be
// registered: the router, and so createProxyApp, throws before the proxy serves anything. Each
// route is its own h3 handler; matching goes through h3's router on the routed path, in a real
// listening server.
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createApp, toNodeListener } from 'h3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { compileCorsHeaders } from '../src/http/cors.js'
import { sendText } from '../src/http/respond.js'
import { createLogger } from '../src/logger.js'
import { ACCESS_KINDS, type RouteDeclaration } from '../src/routing/route-declaration.js'
import { createRequestHandler } from '../src/routing/request-handler.js'
import { createProxyRouter, type ProxyRouterOptions } from '../src/routing/router.js'

const ok = () => 'handled'
const route = (overrides: Partial<RouteDeclaration> = {}): RouteDeclaration => ({
  methods: ['GET'],
  path: '/proxy/thing',
  access: 'client-key',
  waitsForFlags: false,
  example: { status: 200 },
  handle: ok,
  ...overrides,
})
const CORS = {
  origin: '*',
  methods: 'GET, POST',
  allowedHeaders: undefined,
  exposedHeaders: 'ETag',
  credentials: false,
  maxAge: 172800,
  preflightContinue: false,
  optionsSuccessStatus: 204,
} as const
const options = (overrides: Partial<ProxyRouterOptions> = {}): ProxyRouterOptions => ({
  keyHeader: 'authorization',
  permits: (access, key) => access === 'open' || key === 'key',
  currentFlags: () => undefined,
  corsHeaders: compileCorsHeaders({ ...CORS }),
  ...overrides,
})
const create = (routes: RouteDeclaration[], instrument?: ProxyRouterOptions['instrument']) =>
  createProxyRouter(routes, options({ instrument }))

describe('createProxyRouter', () => {
  it('knows exactly seven access kinds', () => {
    expect([...ACCESS_KINDS].sort()).toEqual([
      'client-key',
      'client-key-or-frontend-token',
      'client-key-or-server-token',
      'client-token',
      'frontend-token',
      'open',
      'server-token',
    ])
  })

  it.each([
    ['no access at all', { access: undefined }],
    ['an empty access', { access: '' }],
    ['an unknown access kind', { access: 'admin' }],
    ['an access kind in another case', { access: 'OPEN' }],
    ['an access list', { access: ['client-key'] }],
  ])('throws for a route with %s', (_label, overrides) => {
    const bad = route(overrides as Partial<RouteDeclaration>)
    expect(() => create([route({ path: '/fine' }), bad])).toThrow(/GET \/proxy\/thing.*access/)
  })

  it.each([
    ['no methods', { methods: [] }, /method/],
    ['an unknown method', { methods: ['DELETE'] }, /method/],
    ['a path without a leading slash', { path: 'proxy' }, /path/],
    ['a path with upper case (routing is case-insensitive)', { path: '/Proxy' }, /path/],
    ['a path with a trailing slash (routing drops one)', { path: '/proxy/' }, /path/],
    ['a path with a router parameter', { path: '/proxy/:name' }, /path/],
    ['a path with a wildcard (use prefix)', { path: '/docs/**' }, /path/],
    ['no handler', { handle: undefined }, /handle/],
    ['no example request (the authorization matrix needs one)', { example: undefined }, /example/],
    ['an example that is not a success', { example: { status: 404 } }, /example/],
    ['no readiness declaration', { waitsForFlags: undefined }, /waitsForFlags/],
  ])('throws for a route with %s', (_label, overrides, message) => {
    expect(() => create([route(overrides as Partial<RouteDeclaration>)])).toThrow(message)
  })

  it('throws when two routes answer the same method and path', () => {
    expect(() => create([route({ methods: ['GET', 'HEAD'] }), route({ methods: ['HEAD'] })])).toThrow(
      /HEAD \/proxy\/thing.*twice/,
    )
  })

  it('describes every route once per method, with its access, readiness gate and example', () => {
    const router = create([route({ methods: ['GET', 'HEAD'], example: { status: 200, path: '/proxy/thing?x=1' } })])
    expect(router.routes).toEqual([
      {
        method: 'GET',
        path: '/proxy/thing',
        prefix: false,
        access: 'client-key',
        waitsForFlags: false,
        example: { status: 200, path: '/proxy/thing?x=1' },
      },
      {
        method: 'HEAD',
        path: '/proxy/thing',
        prefix: false,
        access: 'client-key',
        waitsForFlags: false,
        example: { status: 200, path: '/proxy/thing?x=1' },
      },
    ])
  })

  it('wraps each handler once when asked (the matrix test spies on handlers this way)', () => {
    const seen: string[] = []
    create([route({ methods: ['GET', 'POST'] })], (description, handle) => {
      seen.push(`${description.methods.join(',')} ${description.path} ${description.access}`)
      return handle
    })
    expect(seen).toEqual(['GET,POST /proxy/thing client-key'])
  })
})

describe('matching, through h3 in a listening server', () => {
  const answer =
    (name: string): RouteDeclaration['handle'] =>
    ({ res, method }) =>
      sendText(res, 200, 'text/plain', name, method === 'HEAD')
  let port = 0
  const server = createServer()
  beforeAll(async () => {
    const router = create([
      route({ methods: ['GET', 'POST'], access: 'open', handle: answer('thing') }),
      route({ methods: ['GET'], path: '/docs', prefix: true, access: 'open', handle: answer('docs') }),
      route({ methods: ['GET'], path: '/secret', handle: answer('secret') }),
      route({ methods: ['GET'], path: '/flags', access: 'open', waitsForFlags: true, handle: answer('flags') }),
    ])
    const app = createApp()
    app.use(
      createRequestHandler({
        router: router.handler,
        basePath: '/base',
        cors: { ...CORS },
        corsHeaders: compileCorsHeaders({ ...CORS }),
        logger: createLogger({ level: 'error', json: false, write: () => undefined }),
      }),
    )
    server.on('request', toNodeListener(app))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve(`${res.statusCode} ${text.includes('<pre>') ? 'not found' : text}`))
      })
      req.on('error', reject)
      req.end()
    })

  it.each([
    ['GET', '/base/proxy/thing', '200 thing'],
    ['POST', '/base/proxy/thing', '200 thing'],
    ['GET', '/BASE/Proxy/Thing/', '200 thing'],
    ['HEAD', '/base/proxy/thing', '404 '], // a method the route does not declare (and HEAD has no body)
    ['GET', '/base/proxy/thing//', '404 not found'],
    ['GET', '/base/proxy/thing/more', '404 not found'],
    ['GET', '/base/%70roxy/thing', '404 not found'],
    ['GET', '/proxy/thing', '404 not found'],
    ['GET', '/basex/proxy/thing', '404 not found'],
    ['GET', '/base/docs', '200 docs'],
    ['GET', '/base/docs/openapi.json', '200 docs'],
    ['GET', '/base/docs/a/b/', '200 docs'],
    ['GET', '/base/docsx', '404 not found'],
    ['POST', '/base/docs/openapi.json', '404 not found'],
    ['GET', '/base/__proto__', '404 not found'],
    ['GET', '/base/constructor', '404 not found'],
    ['GET', '/base/proxy/:thing', '404 not found'],
    ['GET', '/base/secret', '401 Unauthorized'],
    [
      'GET',
      '/base/flags',
      '503 The Unleash Proxy has not connected to the Unleash API and is not ready to accept requests yet.',
    ],
  ])('%s %s: %s', async (method, path, expected) => {
    expect(await send(method, path)).toBe(expected)
  })

  it('checks the key on the route h3 matched', async () => {
    expect(await send('GET', '/base/secret', { authorization: 'key' })).toBe('200 secret')
  })
})

describe('createProxyApp', () => {
  it('refuses to start when one of its routes has no valid access declaration', async () => {
    vi.resetModules()
    vi.doMock('../src/routes/operational.js', async (importOriginal) => {
      const original = await importOriginal<typeof import('../src/routes/operational.js')>()
      return {
        ...original,
        operationalRoutes: (...args: Parameters<typeof original.operationalRoutes>) =>
          original
            .operationalRoutes(...args)
            .map((declaration, i) => (i === 0 ? { ...declaration, access: undefined } : declaration)),
      }
    })
    try {
      const { createProxyApp } = await import('../src/app.js')
      const { createProxyConfig } = await import('../src/config/parse.js')
      const config = await createProxyConfig(
        { serviceUrl: 'http://127.0.0.1:1/api', serviceApiToken: 't', clientKeys: ['k'], metricsInterval: 0 },
        {},
      )
      expect(() => createProxyApp({ config, storage: null })).toThrow(/\/proxy\/health.*access/)
    } finally {
      vi.doUnmock('../src/routes/operational.js')
      vi.resetModules()
    }
  })
})

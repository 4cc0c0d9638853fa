// The route table (DESIGN.md, "Authorization"): every route declares who may call it next to its
// handler, and a declaration without a valid access kind cannot be registered: the table, and
// so createProxyApp, throws before the proxy serves anything.
import { describe, expect, it, vi } from 'vitest'
import { ACCESS_KINDS, createRouteTable, type RouteDeclaration } from '../src/routing/route-table.js'

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

describe('createRouteTable', () => {
  it('knows exactly four access kinds', () => {
    expect([...ACCESS_KINDS].sort()).toEqual(['client-key', 'client-key-or-server-token', 'open', 'server-token'])
  })

  it.each([
    ['no access at all', { access: undefined }],
    ['an empty access', { access: '' }],
    ['an unknown access kind', { access: 'admin' }],
    ['an access kind in another case', { access: 'OPEN' }],
    ['an access list', { access: ['client-key'] }],
  ])('throws for a route with %s', (_label, overrides) => {
    const bad = route(overrides as Partial<RouteDeclaration>)
    expect(() => createRouteTable([route({ path: '/fine' }), bad])).toThrow(/GET \/proxy\/thing.*access/)
  })

  it.each([
    ['no methods', { methods: [] }, /method/],
    ['an unknown method', { methods: ['DELETE'] }, /method/],
    ['a path without a leading slash', { path: 'proxy' }, /path/],
    ['a path with upper case (routing is case-insensitive)', { path: '/Proxy' }, /path/],
    ['a path with a trailing slash (routing drops one)', { path: '/proxy/' }, /path/],
    ['no handler', { handle: undefined }, /handle/],
    ['no example request (the authorization matrix needs one)', { example: undefined }, /example/],
    ['an example that is not a success', { example: { status: 404 } }, /example/],
    ['no readiness declaration', { waitsForFlags: undefined }, /waitsForFlags/],
  ])('throws for a route with %s', (_label, overrides, message) => {
    expect(() => createRouteTable([route(overrides as Partial<RouteDeclaration>)])).toThrow(message)
  })

  it('throws when two routes answer the same method and path', () => {
    expect(() => createRouteTable([route({ methods: ['GET', 'HEAD'] }), route({ methods: ['HEAD'] })])).toThrow(/HEAD \/proxy\/thing.*twice/)
  })

  it('matches exact paths by method, and prefix routes on the path and below it only', () => {
    const exact = route({ methods: ['GET', 'POST'] })
    const docs = route({ methods: ['GET'], path: '/docs', prefix: true, access: 'open' })
    const table = createRouteTable([exact, docs])
    expect(table.match('GET', '/proxy/thing')).toBe(exact)
    expect(table.match('POST', '/proxy/thing')).toBe(exact)
    expect(table.match('HEAD', '/proxy/thing')).toBeUndefined()
    expect(table.match('GET', '/proxy/thing/more')).toBeUndefined()
    expect(table.match('GET', '/docs')).toBe(docs)
    expect(table.match('GET', '/docs/openapi.json')).toBe(docs)
    expect(table.match('GET', '/docsx')).toBeUndefined()
    expect(table.match('POST', '/docs/openapi.json')).toBeUndefined()
    // Inherited object keys are not routes or methods.
    expect(table.match('GET', '__proto__')).toBeUndefined()
    expect(table.match('constructor', '/proxy/thing')).toBeUndefined()
  })

  it('describes every route once per method, with its access, readiness gate and example', () => {
    const table = createRouteTable([route({ methods: ['GET', 'HEAD'], example: { status: 200, path: '/proxy/thing?x=1' } })])
    expect(table.routes).toEqual([
      { method: 'GET', path: '/proxy/thing', prefix: false, access: 'client-key', waitsForFlags: false, example: { status: 200, path: '/proxy/thing?x=1' } },
      { method: 'HEAD', path: '/proxy/thing', prefix: false, access: 'client-key', waitsForFlags: false, example: { status: 200, path: '/proxy/thing?x=1' } },
    ])
  })

  it('wraps each handler once when asked (the matrix test spies on handlers this way)', () => {
    const seen: string[] = []
    const table = createRouteTable([route()], (description, handle) => {
      seen.push(`${description.methods.join(',')} ${description.path} ${description.access}`)
      return (call) => `wrapped ${String(handle(call))}`
    })
    expect(seen).toEqual(['GET /proxy/thing client-key'])
    expect(table.match('GET', '/proxy/thing')!.handle({} as never)).toBe('wrapped handled')
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
          original.operationalRoutes(...args).map((declaration, i) => (i === 0 ? { ...declaration, access: undefined } : declaration)),
      }
    })
    try {
      const { createProxyApp } = await import('../src/app.js')
      const { createProxyConfig } = await import('../src/config/parse.js')
      const config = await createProxyConfig({ serviceUrl: 'http://127.0.0.1:1/api', serviceApiToken: 't', clientKeys: ['k'], metricsInterval: 0 }, {})
      expect(() => createProxyApp({ config, storage: null })).toThrow(/\/proxy\/health.*access/)
    } finally {
      vi.doUnmock('../src/routes/operational.js')
      vi.resetModules()
    }
  })
})

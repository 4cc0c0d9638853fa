// The runtime-generated OpenAPI document (spec 4.5): a valid OpenAPI 3.0.3 document with the old
// proxy's routes, tags, security scheme and component names, but true to what Vexil answers.
import SwaggerParser from '@apidevtools/swagger-parser'
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument } from '../src/openapi/index.js'

type Json = Record<string, any>

const OPTIONS = { basePath: '', clientKeysHeaderName: 'authorization', version: '1.2.3', enableAllEndpoint: true }

/** Dereferenced, so assertions can read schemas without following `$ref`s by hand. */
async function dereferenced(options: Partial<typeof OPTIONS> = {}): Promise<Json> {
  return (await SwaggerParser.dereference(
    structuredClone(createOpenApiDocument({ ...OPTIONS, ...options })) as never,
  )) as Json
}

const ROUTES: Array<[path: string, methods: string[]]> = [
  ['/proxy', ['get', 'post']],
  ['/proxy/all', ['get', 'post']],
  ['/proxy/client/metrics', ['post']],
  ['/proxy/all/client/metrics', ['post']],
  ['/proxy/client/register', ['post']],
  ['/proxy/client/features', ['get']],
  ['/proxy/health', ['get']],
  ['/proxy/internal-backstage/prometheus', ['get']],
]

const OPERATORS = [
  'IN',
  'NOT_IN',
  'STR_STARTS_WITH',
  'STR_ENDS_WITH',
  'STR_CONTAINS',
  'NUM_EQ',
  'NUM_GT',
  'NUM_GTE',
  'NUM_LT',
  'NUM_LTE',
  'DATE_AFTER',
  'DATE_BEFORE',
  'SEMVER_EQ',
  'SEMVER_GT',
  'SEMVER_LT',
  'SEMVER_GTE',
  'SEMVER_LTE',
  'REGEX',
  'IN_CIDR',
]

describe('the document is valid OpenAPI 3', () => {
  it.each([
    ['no base path', ''],
    ['a base path', '/vexil/base'],
  ])('validates with swagger-parser (%s)', async (_, basePath) => {
    const document = createOpenApiDocument({ ...OPTIONS, basePath })
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy()
    expect(document.openapi).toBe('3.0.3')
  })

  it('validates with the all endpoint disabled and a custom key header', async () => {
    const document = createOpenApiDocument({
      ...OPTIONS,
      enableAllEndpoint: false,
      clientKeysHeaderName: 'x-vexil-key',
    })
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy()
  })

  it('is plain JSON: it survives a JSON round trip unchanged', () => {
    const document = createOpenApiDocument(OPTIONS)
    expect(JSON.parse(JSON.stringify(document))).toEqual(document)
  })

  it("is a fresh object per call, so one app cannot change another app's document", () => {
    const first = createOpenApiDocument(OPTIONS)
    ;(first.info as Json).title = 'changed'
    expect((createOpenApiDocument(OPTIONS).info as Json).title).toBe('Vexil Proxy API')
  })
})

describe('info, servers, tags and security follow the options', () => {
  it('names the API and takes the version from the option', () => {
    const document = createOpenApiDocument({ ...OPTIONS, version: '0.1.0' })
    expect(document.info).toMatchObject({ title: 'Vexil Proxy API', version: '0.1.0' })
  })

  it('servers is [] without a base path (old behaviour) and [{ url: basePath }] with one', () => {
    expect(createOpenApiDocument({ ...OPTIONS, basePath: '' }).servers).toEqual([])
    expect(createOpenApiDocument({ ...OPTIONS, basePath: '/vexil/base' }).servers).toEqual([{ url: '/vexil/base' }])
  })

  it('paths stay relative to the base path (the server carries it; #125 doubled it)', () => {
    const paths = Object.keys(createOpenApiDocument({ ...OPTIONS, basePath: '/vexil/base' }).paths as Json)
    expect(paths.every((path) => path.startsWith('/proxy'))).toBe(true)
  })

  it.each(['authorization', 'x-vexil-key'])('the apiKey scheme reads the header named %s', (header) => {
    const document = createOpenApiDocument({ ...OPTIONS, clientKeysHeaderName: header }) as Json
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: header }),
    })
    expect(document.security).toEqual([{ apiKey: [] }])
  })

  it('has the old tags, in the old order', () => {
    const tags = (createOpenApiDocument(OPTIONS).tags as Json[]).map((tag) => tag.name)
    expect(tags).toEqual(['Proxy client', 'Server-side client', 'Operational'])
  })

  it('keeps every component schema name of the old document', () => {
    const names = Object.keys((createOpenApiDocument(OPTIONS) as Json).components.schemas)
    expect(names).toEqual(
      expect.arrayContaining([
        'apiRequestSchema',
        'featureSchema',
        'featuresSchema',
        'lookupTogglesSchema',
        'registerMetricsSchema',
        'registerClientSchema',
        'unleashContextSchema',
        'variantSchema',
      ]),
    )
  })
})

describe('routes', () => {
  it('lists exactly the proxy routes with the right methods', () => {
    const paths = createOpenApiDocument(OPTIONS).paths as Json
    expect(Object.keys(paths).sort()).toEqual(ROUTES.map(([path]) => path).sort())
    for (const [path, methods] of ROUTES) expect(Object.keys(paths[path]).sort(), path).toEqual([...methods].sort())
  })

  it('every operation has a summary, a description and a known tag', () => {
    const document = createOpenApiDocument(OPTIONS) as Json
    const tags = new Set(document.tags.map((tag: Json) => tag.name))
    for (const [path, methods] of ROUTES) {
      for (const method of methods) {
        const operation = document.paths[path][method]
        expect(operation.summary, `${method} ${path}`).toBeTruthy()
        expect(operation.description, `${method} ${path}`).toBeTruthy()
        expect(operation.tags.length, `${method} ${path}`).toBeGreaterThan(0)
        for (const tag of operation.tags) expect(tags.has(tag), `${method} ${path}: ${tag}`).toBe(true)
      }
    }
  })

  it('health and prometheus need no key; everything else does', () => {
    const paths = createOpenApiDocument(OPTIONS).paths as Json
    expect(paths['/proxy/health'].get.security).toEqual([])
    expect(paths['/proxy/internal-backstage/prometheus'].get.security).toEqual([])
    expect(paths['/proxy'].get.security).toBeUndefined()
    expect(paths['/proxy/client/features'].get.security).toBeUndefined()
  })

  it('/proxy/client/features is for server-side tokens only', () => {
    const operation = (createOpenApiDocument(OPTIONS).paths as Json)['/proxy/client/features'].get
    expect(operation.tags).toEqual(['Server-side client'])
    expect(operation.description).toMatch(/server-side token/i)
    expect(operation.description).toMatch(/client keys? (are|is) refused|client keys get 401/i)
  })
})

describe('/proxy/all follows enableAllEndpoint', () => {
  it.each(['get', 'post'])(
    '%s documents 501 (text/html) and says it is disabled when the option is off',
    async (method) => {
      const operation = (await dereferenced({ enableAllEndpoint: false })).paths['/proxy/all'][method]
      expect(operation.responses['501'].content).toEqual({ 'text/html': expect.anything() })
      expect(operation.summary).toMatch(/disabled/i)
      expect(operation.description).toMatch(/disabled on this proxy/i)
      expect(operation.description).toMatch(/enableAllEndpoint/)
    },
  )

  it.each(['get', 'post'])('%s does not claim to be disabled when the option is on', (method) => {
    const operation = (createOpenApiDocument({ ...OPTIONS, enableAllEndpoint: true }).paths as Json)['/proxy/all'][
      method
    ]
    expect(operation.summary).not.toMatch(/disabled/i)
    expect(operation.description).not.toMatch(/disabled on this proxy/i)
    expect(operation.responses['200']).toBeDefined()
  })
})

describe('responses are true to Vexil', () => {
  it('401 is text/plain "Unauthorized" wherever a key is needed', async () => {
    const paths = (await dereferenced()).paths
    for (const [path, methods] of ROUTES) {
      for (const method of methods) {
        const { security, responses } = paths[path][method]
        if (security?.length === 0) {
          expect(responses['401'], `${method} ${path}`).toBeUndefined()
          continue
        }
        expect(Object.keys(responses['401'].content), `${method} ${path}`).toEqual(['text/plain'])
        expect(responses['401'].content['text/plain'].example).toBe('Unauthorized')
      }
    }
  })

  it('503 (not ready) is listed on every gated route and not on metrics or register', async () => {
    const paths = (await dereferenced()).paths
    const gated = [
      '/proxy',
      '/proxy/all',
      '/proxy/client/features',
      '/proxy/health',
      '/proxy/internal-backstage/prometheus',
    ]
    for (const [path, methods] of ROUTES) {
      for (const method of methods) {
        const response = paths[path][method].responses['503']
        if (gated.includes(path)) expect(response?.content?.['text/html'], `${method} ${path}`).toBeDefined()
        else expect(response, `${method} ${path}`).toBeUndefined()
      }
    }
  })

  it('POST routes document 413 and 415; 413 and 500 carry a JSON { error } body', async () => {
    const paths = (await dereferenced()).paths
    for (const [path, methods] of ROUTES) {
      if (!methods.includes('post')) continue
      const { responses } = paths[path].post
      expect(responses['413'].content['application/json'].schema.required, path).toEqual(['error'])
      expect(responses['415'].content, path).toBeUndefined()
    }
    for (const path of ['/proxy', '/proxy/all']) {
      for (const method of ['get', 'post']) {
        expect(paths[path][method].responses['500'].content['application/json'].schema.required).toEqual(['error'])
        expect(paths[path][method].responses['500'].description).not.toMatch(/make sure they don't throw/)
      }
    }
  })

  it('GETs that send an ETag answer 304 on If-None-Match; POSTs never do', async () => {
    const paths = (await dereferenced()).paths
    for (const path of ['/proxy', '/proxy/all', '/proxy/client/features']) {
      expect(paths[path].get.responses['304'], path).toBeDefined()
      expect(paths[path].get.responses['200'].headers.ETag, path).toBeDefined()
      expect(
        paths[path].get.parameters.some((p: Json) => p.in === 'header' && p.name === 'If-None-Match'),
        path,
      ).toBe(true)
      expect(paths[path].post?.responses['304'], path).toBeUndefined()
    }
  })

  it('health answers text/html "ok"; metrics and register answer text/plain "OK"', async () => {
    const paths = (await dereferenced()).paths
    expect(paths['/proxy/health'].get.responses['200'].content['text/html'].example).toBe('ok')
    for (const path of ['/proxy/client/metrics', '/proxy/all/client/metrics', '/proxy/client/register']) {
      expect(paths[path].post.responses['200'].content['text/plain'].example, path).toBe('OK')
    }
  })

  it('the server-side features response includes segments (old proxy dropped them, #201)', async () => {
    const schema = (await dereferenced()).paths['/proxy/client/features'].get.responses['200'].content[
      'application/json'
    ].schema
    expect(schema.properties.segments.items.properties).toMatchObject({
      id: expect.anything(),
      constraints: expect.anything(),
    })
    expect(schema.properties.features.items.properties.strategies.items.properties.segments).toBeDefined()
  })

  it('constraints name all 19 operators', async () => {
    const schemas = (await dereferenced()).components.schemas
    const constraint =
      schemas.apiRequestSchema.properties.features.items.properties.strategies.items.properties.constraints.items
    expect(constraint.properties.operator.enum).toEqual(OPERATORS)
    expect(
      schemas.apiRequestSchema.properties.segments.items.properties.constraints.items.properties.operator.enum,
    ).toEqual(OPERATORS)
  })

  it('request bodies point at the old component schemas', () => {
    const paths = createOpenApiDocument(OPTIONS).paths as Json
    const body = (path: string) => paths[path].post.requestBody.content['application/json'].schema.$ref
    expect(body('/proxy')).toBe('#/components/schemas/lookupTogglesSchema')
    expect(body('/proxy/all')).toBe('#/components/schemas/lookupTogglesSchema')
    expect(body('/proxy/client/metrics')).toBe('#/components/schemas/registerMetricsSchema')
    expect(body('/proxy/all/client/metrics')).toBe('#/components/schemas/registerMetricsSchema')
    expect(body('/proxy/client/register')).toBe('#/components/schemas/registerClientSchema')
  })

  it('POST /proxy bodies are optional (an absent body evaluates like GET)', () => {
    const paths = createOpenApiDocument(OPTIONS).paths as Json
    expect(paths['/proxy'].post.requestBody.required).toBe(false)
    expect(paths['/proxy/client/metrics'].post.requestBody.required).toBe(true)
  })
})

describe('the document comes from the route table', () => {
  it("the app's document lists exactly its routes (GET and POST; HEAD implied; the docs aside), and validates", async () => {
    const { startFakeUpstream } = await import('@vexil/test-fixtures/fake-upstream.ts')
    const { startTestProxy } = await import('./helpers/proxy.js')
    const upstream = await startFakeUpstream()
    const proxy = await startTestProxy(upstream.url, { enableOAS: true })
    try {
      const document = (await (await fetch(proxy.at('/docs/openapi.json'))).json()) as Json
      const expected = new Set(
        proxy.routes
          .filter((route) => route.method !== 'HEAD' && !route.path.startsWith('/docs'))
          .map(
            (route) =>
              `${route.method.toLowerCase()} ${route.prefix === 'below' ? `${route.path}/{featureName}` : route.path}`,
          ),
      )
      const listed = new Set(
        Object.entries(document.paths as Json).flatMap(([path, operations]) =>
          Object.keys(operations).map((method) => `${method} ${path}`),
        ),
      )
      expect([...listed].sort()).toEqual([...expected].sort())
      expect(listed.has('get /api/frontend')).toBe(true)
      await expect(SwaggerParser.validate(document as never)).resolves.toBeTruthy()
    } finally {
      await proxy.close()
      await upstream.close()
    }
  })

  it('a route without an operation is an error naming it, not a silent gap', () => {
    expect(() =>
      createOpenApiDocument({ ...OPTIONS, routes: [{ method: 'GET', path: '/api/nowhere', prefix: false }] }),
    ).toThrow(/GET \/api\/nowhere has no OpenAPI operation/)
  })
})

// The docs routes (spec 4.5) through a real listening h3 server: the document, the old 301 to
// the trailing slash, the Swagger UI page and its static files, 404s, and that no request path
// can read a file outside the swagger-ui-dist folder.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DocsServer, FALLTHROUGH, startDocsServer } from './helpers/docs-server.js'

const require = createRequire(import.meta.url)
const distDir = dirname(require.resolve('swagger-ui-dist/package.json'))
const distVersion = (JSON.parse(readFileSync(join(distDir, 'package.json'), 'utf8')) as { version: string }).version

// Text that only a leaked file would contain: package manifests, /etc/passwd, the upstream
// demo page (petstore) and Node-only entry points.
const LEAK_MARKERS = ['"name": "swagger-ui-dist"', '"name":', 'root:', 'petstore', 'module.exports', 'require(']

describe.each([
  ['without a base path', ''],
  ['under a base path', '/vexil/base'],
])('docs routes %s', (_, base) => {
  let server: DocsServer
  const docs = `${base}/docs/openapi`

  beforeAll(async () => {
    server = await startDocsServer({ basePath: base })
  })
  afterAll(async () => {
    await server?.close()
  })

  describe('the document', () => {
    it('GET openapi.json answers the document as JSON', async () => {
      const response = await server.raw(`${base}/docs/openapi.json`)
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(JSON.parse(response.text)).toEqual(server.document)
    })

    it('HEAD openapi.json answers the same headers and no body', async () => {
      const response = await server.raw(`${base}/docs/openapi.json`, { method: 'HEAD' })
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(response.body.length).toBe(0)
    })

    it('a query string does not change the answer', async () => {
      const response = await server.raw(`${base}/docs/openapi.json?cache=bust`)
      expect(JSON.parse(response.text)).toEqual(server.document)
    })
  })

  describe('the UI page', () => {
    it('/docs/openapi answers 301 to the trailing slash (old behaviour), keeping the query', async () => {
      expect(await server.raw(docs)).toMatchObject({ status: 301, headers: { location: `${docs}/` } })
      expect(await server.raw(`${docs}?urls=1`)).toMatchObject({
        status: 301,
        headers: { location: `${docs}/?urls=1` },
      })
    })

    it.each(['/', '/index.html'])('%s is our own Swagger UI page, loading only from this server', async (suffix) => {
      const response = await server.raw(`${docs}${suffix}`)
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(response.headers['content-security-policy']).toContain("default-src 'self'")
      expect(response.text).toContain(`./swagger-ui-bundle.js?v=${distVersion}`)
      expect(response.text).toContain('./vexil-initializer.js')
      expect(response.text).not.toMatch(/https?:\/\//)
      expect(response.text).not.toContain('petstore')
    })

    it('the initializer points at the document relative to the page, whatever the prefix', async () => {
      const response = await server.raw(`${docs}/vexil-initializer.js`)
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(response.text).toContain("'../openapi.json'")
      // Swagger UI's default validator badge would call validator.swagger.io.
      expect(response.text).toContain('validatorUrl: null')
    })
  })

  describe('static files', () => {
    it.each([
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['index.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
      ['favicon-16x16.png', 'image/png'],
      ['swagger-ui-bundle.js.map', 'application/json; charset=utf-8'],
      ['oauth2-redirect.html', 'text/html; charset=utf-8'],
    ])('%s is served byte for byte as %s', async (name, contentType) => {
      const response = await server.raw(`${docs}/${name}?v=${distVersion}`)
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toBe(contentType)
      expect(response.headers['x-content-type-options']).toBe('nosniff')
      expect(response.body.equals(readFileSync(join(distDir, name)))).toBe(true)
    })

    it('a versioned URL (the page links these) is cached for a year, immutable', async () => {
      const response = await server.raw(`${docs}/swagger-ui.css?v=${distVersion}`)
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    })

    it('an unversioned or stale URL revalidates by ETag instead, so an upgrade is seen', async () => {
      for (const query of ['', '?v=0.0.1']) {
        const response = await server.raw(`${docs}/swagger-ui.css${query}`)
        expect(response.status).toBe(200)
        expect(response.headers['cache-control']).toBe('no-cache')
        const etag = response.headers.etag as string
        expect(etag).toMatch(/^".+"$/)
        const revalidated = await server.raw(`${docs}/swagger-ui.css${query}`, { headers: { 'if-none-match': etag } })
        expect(revalidated.status).toBe(304)
        expect(revalidated.body.length).toBe(0)
      }
    })

    it('HEAD answers the headers and no body', async () => {
      const response = await server.raw(`${docs}/swagger-ui.css`, { method: 'HEAD' })
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toBe('text/css; charset=utf-8')
      expect(response.body.length).toBe(0)
    })
  })

  describe('404 and fall-through', () => {
    it.each([
      `/docs/openapi/nope.js`,
      `/docs/openapi/sub/swagger-ui.css`,
      `/docs/openapi.yaml`,
      `/docs/openapi.yml`,
      `/docs/openapi/validate`,
      `/docs/openapi/components/schemas/featureSchema.json`,
      `/docs`,
      `/docs/`,
      `/docs/other`,
    ])('%s is an unknown docs path: 404', async (path) => {
      const response = await server.raw(`${base}${path}`)
      expect(response.status).toBe(404)
    })

    it.each([
      ['GET', '/proxy'],
      ['GET', '/proxy/health'],
      ['GET', '/docsx/openapi.json'],
      ['GET', '/documents'],
      ['POST', '/docs/openapi.json'],
      ['OPTIONS', '/docs/openapi/'],
      ['DELETE', '/docs/openapi/swagger-ui.css'],
    ])('%s %s is left to the other routes', async (method, path) => {
      const response = await server.raw(`${base}${path}`, { method })
      expect(response.text).toBe(FALLTHROUGH)
    })
  })

  describe('path traversal never reads outside swagger-ui-dist', () => {
    it.each([
      '../package.json',
      '../../../../../../../../etc/passwd',
      '%2e%2e/%2e%2e/package.json',
      '%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '%2E%2E%2Fpackage.json',
      '..%2f..%2f..%2f..%2fpackage.json',
      '..%5c..%5c..%5cpackage.json',
      '..\\..\\..\\package.json',
      '%252e%252e%252fpackage.json',
      '....//....//package.json',
      '%2fetc%2fpasswd',
      '/etc/passwd',
      '%5cetc%5cpasswd',
      'swagger-ui.css%00.png',
      'package.json%00.css',
      '%c0%ae%c0%ae/package.json',
      '%E0%A4%A',
      '.%2fswagger-ui.css',
      './swagger-ui.css',
      'node_modules%2fswagger-ui-dist%2fpackage.json',
      // Files that are in the folder but are not part of the UI.
      'package.json',
      'index.js',
      'absolute-path.js',
      'swagger-initializer.js',
      'README.md',
      'LICENSE',
    ])('%s → 404', async (attempt) => {
      const response = await server.raw(`${docs}/${attempt}`)
      expect(response.status).toBe(404)
      for (const marker of LEAK_MARKERS) expect(response.text).not.toContain(marker)
    })
  })
})

describe('docs routes under a base path ignore the same routes outside it', () => {
  let server: DocsServer
  beforeAll(async () => {
    server = await startDocsServer({ basePath: '/vexil/base' })
  })
  afterAll(async () => {
    await server?.close()
  })

  it.each(['/docs/openapi.json', '/docs/openapi/', '/vexil/basement/docs/openapi.json', '/vexil/docs/openapi.json'])(
    '%s falls through',
    async (path) => {
      expect((await server.raw(path)).text).toBe(FALLTHROUGH)
    },
  )
})

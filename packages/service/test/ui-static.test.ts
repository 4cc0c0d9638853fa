// The admin UI's static route (issue 8): content types, caching, the History API fallback,
// what stays the API's, traversal attempts, and a service whose UI was not built. Over a fixture
// build in a temp folder, through a real listening server; raw HTTP for the traversal paths,
// since fetch would normalise `..` away before sending.
import { request } from 'node:http'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_UI_DIR } from '../src/routes/ui.js'
import { startTestService, type TestService } from './helpers/service.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12.js"></script></head><body><div id="app"></div></body></html>'
const SECRET = 'outside-the-build'

/** GET (or another method) with the path sent exactly as written. */
function raw(
  url: string,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const req = request({ hostname, port, path, method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode as number, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the admin UI static route', () => {
  const folder = tempDir('ui-static')
  const root = join(folder.path, 'ui')
  let service: TestService

  beforeAll(async () => {
    mkdirSync(join(root, 'assets'), { recursive: true })
    writeFileSync(join(root, 'index.html'), INDEX)
    writeFileSync(join(root, 'assets', 'index-Ab12.js'), 'console.log("ui")')
    writeFileSync(join(root, 'assets', 'index-Cd34.css'), 'body{}')
    writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    writeFileSync(join(root, '.env'), SECRET)
    writeFileSync(join(folder.path, 'secret.txt'), SECRET)
    service = await startTestService({ uiDir: root })
  })
  afterAll(async () => {
    await service.close()
    folder.remove()
  })

  it('serves the built UI from dist/ui of the package by default', () => {
    expect(DEFAULT_UI_DIR.replaceAll('\\', '/')).toMatch(/packages\/service\/dist\/ui$/)
  })

  it.each(['/', '/flags', '/integrations/signal-endpoints/3', '/actions/default/1?tab=runs', '/insights/'])(
    'GET %s is index.html, revalidated on every load, with a strict content security policy',
    async (path) => {
      const response = await fetch(`${service.url}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(await response.text()).toBe(INDEX)
    },
  )

  it.each([
    ['/assets/index-Ab12.js', 'text/javascript; charset=utf-8'],
    ['/assets/index-Cd34.css', 'text/css; charset=utf-8'],
  ])('hashed asset %s: its content type, cached for a year as immutable', async (path, type) => {
    const response = await fetch(`${service.url}${path}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(type)
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('other files of the build are revalidated (no-cache), with their type', async () => {
    const response = await fetch(`${service.url}/favicon.svg`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
    expect(response.headers.get('cache-control')).toBe('no-cache')
  })

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await fetch(`${service.url}/`)
    const etag = first.headers.get('etag') as string
    expect(etag).toMatch(/^".+"$/)
    expect((await fetch(`${service.url}/`, { headers: { 'if-none-match': etag } })).status).toBe(304)
    expect((await fetch(`${service.url}/assets/index-Ab12.js`, { headers: { 'if-none-match': etag } })).status).toBe(
      200,
    )
    const head = await raw(service.url, '/', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(head.body).toBe('')
  })

  it.each(['/assets/missing-Zz99.js', '/assets/nested/page', '/missing.png', '/flags/logo.svg'])(
    'a missing file %s is a JSON 404, not the page',
    async (path) => {
      const response = await fetch(`${service.url}${path}`)
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ name: 'NotFoundError' })
    },
  )

  it('leaves the API alone: unknown API paths are its 404, tokens are still required, /health is health', async () => {
    const unknown = await fetch(`${service.url}/api/admin/no-such-route`, { headers: { authorization: service.admin } })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ name: 'NotFoundError' })
    expect((await fetch(`${service.url}/api/admin/projects`)).status).toBe(401)
    expect((await fetch(`${service.url}/api`)).headers.get('content-type')).not.toContain('text/html')
    expect(await (await fetch(`${service.url}/health`)).json()).toEqual({ health: 'GOOD' })
  })

  it("answers only GET and HEAD: other methods get the API's 404", async () => {
    const response = await fetch(`${service.url}/flags`, { method: 'POST' })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/json')
  })

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/assets/%2e%2e%5c%2e%2e%5csecret.txt',
    '/%252e%252e/secret.txt',
    '/.env',
    '/assets/%2e%2e/.env',
    '/index.html%00.js',
    '/%ff%fe',
  ])('a traversal attempt %s never reads outside the build or a dot-file', async (path) => {
    const response = await raw(service.url, path)
    expect(response.body).not.toContain(SECRET)
    // A 404, a 400 for a path that reads two ways (dot segments, encoded NUL, bad escapes:
    // request-path.ts), or (for a path that decodes to a harmless page name) the page itself.
    if (response.status === 200) expect(response.body).toBe(INDEX)
    else expect([400, 404]).toContain(response.status)
  })
})

describe('a service whose UI was not built', () => {
  const folder = tempDir('ui-missing')
  let service: TestService

  beforeAll(async () => {
    service = await startTestService({ uiDir: join(folder.path, 'never-built') })
  })
  afterAll(async () => {
    await service.close()
    folder.remove()
  })

  it.each(['/', '/flags'])('GET %s is a short page saying so (200, not a 404 or 500)', async (path) => {
    const response = await fetch(`${service.url}${path}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    const text = await response.text()
    expect(text).toContain('The admin UI was not built')
    expect(text).toContain('npm run build')
  })

  it('a hashed asset is a 404, and the API still answers', async () => {
    expect((await fetch(`${service.url}/assets/index-Ab12.js`)).status).toBe(404)
    expect(
      (await fetch(`${service.url}/api/admin/projects`, { headers: { authorization: service.admin } })).status,
    ).toBe(200)
  })
})

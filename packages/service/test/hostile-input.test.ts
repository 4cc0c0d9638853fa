// Inputs that once gave 500 (issue 13), each now a 4xx naming the problem: malformed Host
// headers, dates out of the range PostgreSQL and Date hold, non-ASCII values in Location
// headers, and status lines that echoed the request path instead of the standard phrase.
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestService, type TestService } from './helpers/service.js'

let service: TestService
let client: string
beforeAll(async () => {
  service = await startTestService()
  client = await service.clientToken()
})
afterAll(() => service.close())

/** A raw request, so the Host header and the path go on the wire as written. */
function raw(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; message: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}/`, { method, path, headers, setHost: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: res.statusMessage ?? '', body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('a malformed Host header', () => {
  it.each(['a b', '%', '[', '[::1', 'a@b:c', ''])('Host %j is answered as any other request', async (host) => {
    const open = await raw('/health', { host })
    expect(open.status).toBe(200)
    const guarded = await raw('/api/admin/projects', { host })
    expect(guarded.status).toBe(401)
    const admitted = await raw('/api/admin/projects', { host, authorization: service.admin })
    expect(admitted.status).toBe(200)
  })
})

describe('dates out of range are 400 naming the field', () => {
  it.each([
    ['GET', '/api/admin/insights?from=2026-13-45&to=2026-01-01', undefined, 'query.from'],
    ['GET', '/api/admin/insights?from=0000-01-01', undefined, 'query.from'],
    ['GET', '/api/admin/dashboard/executive?from=9999-99-99', undefined, 'query.from'],
    ['GET', '/api/admin/signals?to=99999-12-31', undefined, 'query.to'],
    ['GET', '/api/admin/signals?from=1000-01-01', undefined, 'query.from'],
    [
      'POST',
      '/api/admin/api-tokens',
      { tokenName: 'x', type: 'admin', expiresAt: -8640000000000000 },
      'body.expiresAt',
    ],
    [
      'POST',
      '/api/admin/api-tokens',
      { tokenName: 'x', type: 'admin', expiresAt: '+275760-09-13T00:00:00Z' },
      'body.expiresAt',
    ],
    ['POST', '/api/admin/api-tokens', { tokenName: 'x', type: 'admin', expiresAt: true }, 'body.expiresAt'],
    ['POST', '/api/admin/user-admin/1/tokens', { description: 'x', expiresAt: 'not a date' }, 'body.expiresAt'],
  ] as const)('%s %s', async (method, path, body, field) => {
    const response = await service.api(method, path, { ...(body ? { body } : {}) })
    expect(response.status).toBe(400)
    expect(response.body.message).toContain(field)
  })

  it('PUT /api/admin/api-tokens/:id with an impossible expiry', async () => {
    const token = await service.api('POST', '/api/admin/api-tokens', { body: { tokenName: 'expiry', type: 'admin' } })
    const response = await service.api('PUT', `/api/admin/api-tokens/${token.body.id}`, {
      body: { expiresAt: -8640000000000000 },
    })
    expect(response.status).toBe(400)
    expect(response.body.message).toContain('body.expiresAt')
  })

  it('the far edge of the range still works: signals up to 9999-12-31', async () => {
    expect((await service.api('GET', '/api/admin/signals?to=9999-12-31')).status).toBe(200)
  })

  it('POST /api/client/register with a start the database cannot hold', async () => {
    const response = await service.api('POST', '/api/client/register', {
      token: client,
      body: { appName: 'a', instanceId: 'i', strategies: [], started: '+275760-09-13T00:00:00Z', interval: 1000 },
    })
    expect(response.status).toBe(400)
    expect(response.body.message).toContain('body.started')
  })
})

describe('a path no route takes', () => {
  // h3 built its own 404 for such a path, with the path in its status message, and printed a
  // console warning for each one holding characters a status line cannot: a scanner could fill
  // the log. The service answers them itself.
  it.each(['/api/n%C3%A9', '/api/x%C3%A9/%F0%9F%9A%A9', '/health/%C3%A9?q=%C3%A9', '/api/admin/projects/%C3%A9/nope'])(
    '%s is a 404 naming the path, with nothing on the console',
    async (path) => {
      const warn = vi.spyOn(console, 'warn')
      try {
        const callers: Array<Record<string, string>> = [
          { host: 'localhost' },
          { host: 'localhost', authorization: service.admin },
        ]
        for (const headers of callers) {
          const response = await raw(path, headers)
          expect(response.status, response.body).toBe(404)
          expect(response.message).toBe('Not Found')
          const body = JSON.parse(response.body) as { name: string; message: string }
          expect(body.name).toBe('NotFoundError')
          expect(body.message).toBe(`There is no GET ${decodeURIComponent(path.split('?')[0]!)}.`)
        }
        expect(warn).not.toHaveBeenCalled()
      } finally {
        warn.mockRestore()
      }
    },
  )
})

describe('status lines', () => {
  it.each([
    ['/api/nope?x=<script>', 404, 'Not Found'],
    ['/api/admin/projects', 401, 'Unauthorized'],
    ['/api/admin/x/../projects', 400, 'Bad Request'],
  ] as const)('%s gives %i with the standard reason phrase', async (path, status, message) => {
    const response = await raw(path, { host: 'localhost' })
    expect(response.status).toBe(status)
    expect(response.message).toBe(message)
    expect(response.body).not.toContain('<script>')
  })
})

describe('Location headers', () => {
  it('encode each path value: a tag value in Japanese', async () => {
    const response = await service.api('POST', '/api/admin/tags', { body: { type: 'simple', value: '日本語' } })
    expect(response.status).toBe(201)
    expect(response.headers.get('location')).toBe(`tags/simple/${encodeURIComponent('日本語')}`)
    expect((await service.api('GET', `/api/admin/tags/simple/${encodeURIComponent('日本語')}`)).status).toBe(200)
  })
})

describe('request bodies are counted as they arrive', () => {
  /** A chunked POST (no Content-Length) of `total` bytes of a JSON string; stops writing once answered. */
  function chunkedPost(path: string, token: string, total: number): Promise<{ status: number; written: number }> {
    return new Promise((resolve, reject) => {
      let written = 0
      let answered = false
      const req = request(
        `${service.url}${path}`,
        {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          answered = true
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode ?? 0, written }))
        },
      )
      req.on('error', (error) => (answered ? undefined : reject(error)))
      const chunk = Buffer.alloc(64 * 1024, 'a')
      const pump = () => {
        while (!answered && written < total) {
          const first = written === 0
          const piece = first ? Buffer.concat([Buffer.from('{"appName":"'), chunk]) : chunk
          written += piece.length
          if (!req.write(piece)) return void req.once('drain', pump)
        }
        if (!answered) req.end('"}')
      }
      pump()
    })
  }

  it('a 20 MB chunked body is refused 413 long before its end, and nothing is stored', async () => {
    const { status, written } = await chunkedPost('/api/client/register', client, 20 * 1024 * 1024)
    expect(status).toBe(413)
    expect(written).toBeLessThan(10 * 1024 * 1024)
    const apps = await service.api('GET', '/api/admin/metrics/applications')
    expect(JSON.stringify(apps.body).length).toBeLessThan(10_000)
  })

  it('a chunked body under the limit is read as usual', async () => {
    const response = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${service.url}/api/client/register`,
        {
          method: 'POST',
          headers: { authorization: client, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.write('{"appName":"chunked-app",')
      req.end('"instanceId":"i","strategies":[],"interval":1000}')
    })
    expect(response).toBe(202)
  })
})

describe('texts too long for a unique index are 400 naming the field', () => {
  // Found by the fuzz (test/fuzz.test.ts): PostgreSQL refuses index entries over 2704 bytes, and a
  // long text it cannot compress (random, as here) reached a unique index: 500 before.
  const incompressible = (length: number) =>
    Array.from(randomBytes(length), (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('')

  it.each([
    ['POST', '/api/admin/projects', 'body.name', { name: incompressible(5_000) }],
    ['POST', '/api/admin/segments', 'body.name', { name: incompressible(5_000), constraints: [] }],
    ['POST', '/api/admin/user-admin', 'body.username', { username: incompressible(5_000), rootRole: 'Viewer' }],
    ['POST', '/api/admin/user-admin', 'body.email', { email: `a@${incompressible(5_000)}.com`, rootRole: 'Viewer' }],
    // The insights snapshot keys its trends by environment type.
    ['POST', '/api/admin/environments', 'body.type', { name: 'long-type', type: incompressible(5_000) }],
    ['PUT', '/api/admin/environments/update/development', 'body.type', { type: incompressible(5_000) }],
  ] as const)('%s %s with a long %s', async (method, path, field, body) => {
    const response = await service.api(method, path, { body })
    expect(response.status).toBe(400)
    expect(response.body.message).toContain(field)
  })

  it('PUT a segment or a user with one', async () => {
    const segment = await service.api('POST', '/api/admin/segments', {
      body: { name: 'long-name-segment', constraints: [] },
    })
    const renamed = await service.api('PUT', `/api/admin/segments/${segment.body.id}`, {
      body: { name: incompressible(5_000), constraints: [] },
    })
    expect(renamed.status).toBe(400)
    expect(renamed.body.message).toContain('body.name')
    const user = await service.api('POST', '/api/admin/user-admin', {
      body: { email: 'long-email@example.com', rootRole: 'Viewer' },
    })
    const moved = await service.api('PUT', `/api/admin/user-admin/${user.body.id}`, {
      body: { email: `a@${incompressible(5_000)}.com` },
    })
    expect(moved.status).toBe(400)
    expect(moved.body.message).toContain('body.email')
  })

  it('the longest still work: 255 characters, a 100-character project id made from a name', async () => {
    expect(
      (await service.api('POST', '/api/admin/segments', { body: { name: '日'.repeat(255), constraints: [] } })).status,
    ).toBe(201)
    expect(
      (await service.api('POST', '/api/admin/user-admin', { body: { username: '日'.repeat(255), rootRole: 'Viewer' } }))
        .status,
    ).toBe(201)
    const project = await service.api('POST', '/api/admin/projects', { body: { name: `P${'x'.repeat(99)}` } })
    expect(project.status).toBe(201)
    expect(project.body.id).toBe(`p${'x'.repeat(99)}`)
  })
})

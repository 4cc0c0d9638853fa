import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, parseServiceConfig } from '../src/config.js'
import { startTestService, type TestService } from './helpers/service.js'

// The ingest address a signal endpoint answers with (`url`) is built from configuration
// (PUBLIC_URL), never from the caller's Host header: an admin copies it into another system,
// so a forged Host would send that system's signals (and tokens) elsewhere, and a malformed
// one must not be a 500.

/** One raw request: the Host header exactly as given (fetch would not let a test forge it). */
function send(
  service: TestService,
  method: string,
  path: string,
  host: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(
      `${service.url}${path}`,
      {
        method,
        setHost: false,
        headers: {
          host,
          authorization: service.admin,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        let data = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (data += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data ? JSON.parse(data) : undefined }))
      },
    )
    req.on('error', reject)
    req.end(text)
  })
}

const BASE = '/api/admin/signal-endpoints'

describe('with PUBLIC_URL', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ env: { PUBLIC_URL: 'https://flags.example.com/vexil/' } })
  })
  afterAll(() => service.close())

  it('create and update answer PUBLIC_URL + /api/signal-endpoint/<name>, whatever the Host header says', async () => {
    const made = await send(service, 'POST', BASE, 'evil.example', { name: 'pager' })
    expect(made.status).toBe(201)
    expect(made.body.url).toBe('https://flags.example.com/vexil/api/signal-endpoint/pager')
    const updated = await send(service, 'PUT', `${BASE}/${made.body.id}`, 'evil.example:8443', { name: 'pager-2' })
    expect(updated.status).toBe(200)
    expect(updated.body.url).toBe('https://flags.example.com/vexil/api/signal-endpoint/pager-2')
  })

  it.each(['a b', '[::1', 'exa mple.com:99999', '%zz', ''])('a malformed Host header (%j) is no 500', async (host) => {
    const made = await send(service, 'POST', BASE, host, {
      name: `host-${Buffer.from(host).toString('hex').slice(0, 20) || 'empty'}`,
    })
    expect(made.status).toBe(201)
    expect(made.body.url).toMatch(/^https:\/\/flags\.example\.com\/vexil\/api\/signal-endpoint\//)
    await service.api('DELETE', `${BASE}/${made.body.id}`)
  })
})

describe('without PUBLIC_URL', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService()
  })
  afterAll(() => service.close())

  it('the url is http://localhost:<the listening port>, not the Host header', async () => {
    const port = new URL(service.url).port
    const made = await send(service, 'POST', BASE, 'evil.example', { name: 'pager' })
    expect(made.status).toBe(201)
    expect(made.body.url).toBe(`http://localhost:${port}/api/signal-endpoint/pager`)
  })
})

describe('PUBLIC_URL is checked at startup', () => {
  it.each([
    'not a url',
    'ftp://flags.example.com',
    'https://flags.example.com/?x=1',
    'https://flags.example.com/#top',
    'https://user:pw@flags.example.com',
  ])('refuses %j naming PUBLIC_URL', (value) => {
    expect(() => parseServiceConfig({ PUBLIC_URL: value })).toThrow(ConfigError)
    expect(() => parseServiceConfig({ PUBLIC_URL: value })).toThrow(/PUBLIC_URL/)
  })

  it('keeps the path and drops a trailing slash', () => {
    expect(parseServiceConfig({ PUBLIC_URL: 'https://flags.example.com/' }).publicUrl).toBe('https://flags.example.com')
    expect(parseServiceConfig({ PUBLIC_URL: 'http://10.0.0.5:4242/vexil//' }).publicUrl).toBe(
      'http://10.0.0.5:4242/vexil',
    )
    expect(parseServiceConfig({}).publicUrl).toBeUndefined()
  })

  it('the password of a refused URL is not printed', () => {
    expect(() => parseServiceConfig({ PUBLIC_URL: 'https://user:hunter2@flags.example.com' })).not.toThrow(/hunter2/)
  })
})

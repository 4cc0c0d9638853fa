// Corporate networks (docs/operations.md, "Corporate networks"): every upstream call (the flags'
// poll, the stream, token validation, registration, metrics) goes through the forward proxy
// HTTPS_PROXY names unless NO_PROXY exempts the host, trusts the private CA of
// UPSTREAM_CERTIFICATE_FILE, presents the client certificate the upstream requires (PEM or
// PKCS#12), and carries CUSTOM_CLIENT_HEADERS. Real certificates, a real CONNECT proxy, real TLS.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createProxyConfig, startProxy, type RunningProxy } from '@vexil/proxy'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { useCertificates } from './helpers/certificates.js'
import { startForwardProxy, startTlsFront, type ForwardProxy } from './helpers/network-servers.js'

const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const CLIENT_TOKEN = '*:development.network-client'
const REQUIRED = { SERVICE_URL: 'http://127.0.0.1:1/api', SERVICE_API_TOKEN: 't', SERVICE_PROXY_CLIENT_KEYS: 'k' }
/** Every kind of call the proxy makes upstream, as the fake upstream records its path. */
const EVERY_KIND = ['/client/features', '/client/streaming', '/client/register', '/client/metrics', '/edge/validate']

const certificates = useCertificates('upstream-network')
let upstream: FakeUpstream
beforeAll(async () => {
  upstream = await startFakeUpstream(FEATURES)
  upstream.setValidTokens([{ token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' }])
})
afterAll(async () => {
  await upstream.close()
})

const opened: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const each of opened.splice(0).reverse()) await each.close()
})
const track = <T extends { close(): Promise<void> }>(value: T): T => (opened.push(value), value)

async function proxyWith(env: Record<string, string>, { ready = true } = {}): Promise<RunningProxy> {
  const proxy = track(
    await startProxy({
      showURL: false,
      env: {
        SERVICE_API_TOKEN: 't',
        SERVICE_PROXY_CLIENT_KEYS: 'k',
        HOST: '127.0.0.1',
        PORT: '0',
        STORAGE_PROVIDER: 'memory',
        SERVICE_METRICS_INTERVAL: '200',
        ...env,
      },
    }),
  )
  if (ready) await expect.poll(() => proxy.app.ready, { timeout: 10_000 }).toBe(true)
  return proxy
}

/** Makes the proxy call upstream in every way: a token to validate (then its scope's poll), counts to report. */
async function exercise(proxy: RunningProxy): Promise<void> {
  const lookup = await fetch(proxy.url, {
    method: 'POST',
    headers: { authorization: 'k', 'content-type': 'application/json' },
    body: JSON.stringify({ toggles: ['on'] }),
  })
  expect(lookup.status).toBe(200)
  await expect
    .poll(
      async () =>
        (
          await fetch(`http://127.0.0.1:${proxy.port}/api/client/features`, {
            headers: { authorization: CLIENT_TOKEN },
          })
        ).status,
      { timeout: 10_000 },
    )
    .toBe(200)
  await expect
    .poll(() => EVERY_KIND.filter((path) => upstream.requestsTo(path).length === 0), { timeout: 10_000 })
    .toEqual([])
}

const tlsFront = async (clientCa?: string) =>
  track(
    await startTlsFront(upstream.port, {
      key: readFileSync(certificates.pki.serverKey),
      cert: readFileSync(certificates.pki.serverCert),
      ...(clientCa ? { clientCa: readFileSync(clientCa) } : {}),
    }),
  )

describe('a forward proxy', () => {
  it('carries every upstream call to an HTTPS upstream whose name only the proxy resolves', async () => {
    const forward: ForwardProxy = track(await startForwardProxy())
    const front = await tlsFront()
    upstream.requests.length = 0
    const proxy = await proxyWith({
      SERVICE_URL: `https://upstream.test:${front.port}/api`,
      HTTPS_PROXY: forward.url,
      UPSTREAM_CERTIFICATE_FILE: certificates.pki.ca,
    })
    await exercise(proxy)
    expect(forward.tunnels.length).toBeGreaterThan(0)
    expect(new Set(forward.tunnels)).toEqual(new Set([`upstream.test:${front.port}`]))
  })

  it('is used in lower case too, for a plain-HTTP upstream, with credentials in its URL', async () => {
    const forward = track(await startForwardProxy())
    upstream.requests.length = 0
    await proxyWith({
      SERVICE_URL: `http://upstream.test:${upstream.port}/api`,
      http_proxy: forward.url.replace('http://', 'http://user:pass@'),
    })
    expect(forward.tunnels).toContain(`upstream.test:${upstream.port}`)
  })

  it('is bypassed for the hosts NO_PROXY lists', async () => {
    const forward = track(await startForwardProxy())
    upstream.requests.length = 0
    const proxy = await proxyWith({
      SERVICE_URL: upstream.url,
      HTTP_PROXY: forward.url,
      HTTPS_PROXY: forward.url,
      NO_PROXY: 'localhost,127.0.0.1',
    })
    await exercise(proxy)
    expect(forward.tunnels).toEqual([])
  })
})

describe('a private CA', () => {
  it('is trusted through UPSTREAM_CERTIFICATE_FILE, and only then', async () => {
    const front = await tlsFront()
    const url = `https://127.0.0.1:${front.port}/api`
    const untrusting = await proxyWith(
      { SERVICE_URL: url, SERVICE_FETCH_INTERVAL: '100', SERVICE_METRICS_INTERVAL: '0' },
      { ready: false },
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(untrusting.app.ready).toBe(false)
    expect(front.clients).toEqual([])
    await proxyWith({ SERVICE_URL: url, UPSTREAM_CERTIFICATE_FILE: certificates.pki.ca })
    expect(front.clients.length).toBeGreaterThan(0)
  })

  it('is not needed when SKIP_SSL_VERIFICATION is set, which warns at start', async () => {
    const front = await tlsFront()
    const warnings: string[] = []
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: string) => void warnings.push(message),
      error: () => undefined,
      fatal: () => undefined,
    }
    const config = await createProxyConfig(
      { logger },
      { ...REQUIRED, SERVICE_URL: `https://127.0.0.1:${front.port}/api`, SKIP_SSL_VERIFICATION: 'true' },
    )
    expect(config.rejectUnauthorized).toBe(false)
    expect(warnings.join('\n')).toMatch(/TLS VERIFICATION IS OFF \(SKIP_SSL_VERIFICATION/)
    await proxyWith({ SERVICE_URL: `https://127.0.0.1:${front.port}/api`, SKIP_SSL_VERIFICATION: 'true' })
  })
})

describe('a client certificate', () => {
  it.each([
    [
      'PEM (PKCS8_CLIENT_CERTIFICATE_FILE and PKCS8_CLIENT_KEY_FILE)',
      () => ({
        PKCS8_CLIENT_CERTIFICATE_FILE: certificates.pki.clientCert,
        PKCS8_CLIENT_KEY_FILE: certificates.pki.clientKey,
      }),
    ],
    [
      'PKCS#12 (PKCS12_IDENTITY_FILE and PKCS12_PASSPHRASE)',
      () => ({ PKCS12_IDENTITY_FILE: certificates.pki.clientP12, PKCS12_PASSPHRASE: certificates.pki.p12Passphrase }),
    ],
  ])('is presented to an upstream that requires one: %s', async (_name, identity) => {
    const front = await tlsFront(certificates.pki.ca)
    upstream.requests.length = 0
    const proxy = await proxyWith({
      SERVICE_URL: `https://127.0.0.1:${front.port}/api`,
      UPSTREAM_CERTIFICATE_FILE: certificates.pki.ca,
      ...identity(),
    })
    await exercise(proxy)
    expect(new Set(front.clients)).toEqual(new Set(['vexil-proxy']))
  })

  it('is what the upstream refuses the proxy without', async () => {
    const front = await tlsFront(certificates.pki.ca)
    const proxy = await proxyWith(
      {
        SERVICE_URL: `https://127.0.0.1:${front.port}/api`,
        UPSTREAM_CERTIFICATE_FILE: certificates.pki.ca,
        SERVICE_FETCH_INTERVAL: '100',
        SERVICE_METRICS_INTERVAL: '0',
      },
      { ready: false },
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(proxy.app.ready).toBe(false)
  })
})

describe('CUSTOM_CLIENT_HEADERS', () => {
  it('reach the upstream on every kind of call, in Edge\'s "Name: value" list', async () => {
    upstream.requests.length = 0
    const proxy = await proxyWith({
      SERVICE_URL: upstream.url,
      CUSTOM_CLIENT_HEADERS: 'X-Api-Key: gateway-secret, X-Team:flags',
    })
    await exercise(proxy)
    for (const path of EVERY_KIND) {
      for (const request of upstream.requestsTo(path))
        expect({ path, key: request.headers['x-api-key'], team: request.headers['x-team'] }).toEqual({
          path,
          key: 'gateway-secret',
          team: 'flags',
        })
    }
  })
})

describe('network configuration', () => {
  it.each([
    [
      { CUSTOM_CLIENT_HEADERS: 'X-Api-Key gateway-secret' },
      /^CUSTOM_CLIENT_HEADERS must be "Name: value" pairs separated by commas; entry 1 is not$/,
    ],
    [{ CUSTOM_CLIENT_HEADERS: 'Host: elsewhere' }, /CUSTOM_CLIENT_HEADERS cannot set host/],
    [
      { UPSTREAM_CERTIFICATE_FILE: '/nonexistent/ca.pem' },
      /^UPSTREAM_CERTIFICATE_FILE cannot be read: \/nonexistent\/ca.pem \(ENOENT\)$/,
    ],
    [
      { UPSTREAM_CERTIFICATE_FILE: fileURLToPath(import.meta.url) },
      /^UPSTREAM_CERTIFICATE_FILE is not a PEM certificate/,
    ],
    [
      { PKCS8_CLIENT_CERTIFICATE_FILE: 'client.crt' },
      /^PKCS8_CLIENT_KEY_FILE is required with PKCS8_CLIENT_CERTIFICATE_FILE/,
    ],
    [{ HTTPS_PROXY: 'ftp://proxy' }, /^HTTPS_PROXY must be an http\(s\) URL/],
  ])('refuses %j, naming the variable', async (env, message) => {
    await expect(createProxyConfig({}, { ...REQUIRED, ...env })).rejects.toThrow(message)
  })

  it('refuses a client key that does not match its certificate, and a PKCS#12 file with the wrong passphrase', async () => {
    await expect(
      createProxyConfig(
        {},
        {
          ...REQUIRED,
          PKCS8_CLIENT_CERTIFICATE_FILE: certificates.pki.clientCert,
          PKCS8_CLIENT_KEY_FILE: certificates.pki.otherKey,
        },
      ),
    ).rejects.toThrow(/^PKCS8_CLIENT_KEY_FILE does not match the certificate in PKCS8_CLIENT_CERTIFICATE_FILE$/)
    await expect(
      createProxyConfig(
        {},
        { ...REQUIRED, PKCS12_IDENTITY_FILE: certificates.pki.clientP12, PKCS12_PASSPHRASE: 'wrong' },
      ),
    ).rejects.toThrow(/^PKCS12_IDENTITY_FILE cannot be opened with PKCS12_PASSPHRASE/)
  })

  it('reads a proxy as host:port, lower-case names first, and keeps header values and proxy credentials out of the log', async () => {
    const config = await createProxyConfig(
      {},
      {
        ...REQUIRED,
        HTTPS_PROXY: 'http://upper:3128',
        https_proxy: 'proxy.corp:3128',
        HTTP_PROXY: 'http://u:p%40ss@proxy.corp:3128',
        CUSTOM_CLIENT_HEADERS: 'X-Api-Key: gateway-secret',
      },
    )
    expect(config.upstreamNetwork).toMatchObject({
      httpsProxy: 'http://proxy.corp:3128/',
      httpProxy: 'http://u:p%40ss@proxy.corp:3128/',
      headers: { 'x-api-key': 'gateway-secret' },
    })
    const lines: string[] = []
    const write = process.stderr.write
    process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write
    try {
      config.logger.warn('sent gateway-secret through p@ss')
    } finally {
      process.stderr.write = write
    }
    expect(lines.join('')).not.toMatch(/gateway-secret|p@ss/)
  })
})

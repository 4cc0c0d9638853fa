// TLS as Edge serves it (docs/operations.md, "TLS"): TLS_ENABLE puts the same app on an HTTPS port
// (TLS_SERVER_PORT) beside the HTTP one, or REDIRECT_HTTP_TO_HTTPS makes the HTTP port redirect
// there; a missing, unreadable or mismatched key and certificate stop the start naming the
// variable. Real handshakes with certificates made by openssl in the test, one process and WORKERS=2.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createProxyConfig, startProxy, type RunningProxy } from '@vexil/proxy'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { useCertificates } from './helpers/certificates.js'
import { until } from './helpers/until.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const REQUIRED = { SERVICE_URL: 'http://127.0.0.1:1/api', SERVICE_API_TOKEN: 't', SERVICE_PROXY_CLIENT_KEYS: 'k' }

const certificates = useCertificates('tls-listener')
let upstream: FakeUpstream
beforeAll(async () => void (upstream = await startFakeUpstream(FEATURES)))
afterAll(() => upstream.close())

let running: RunningProxy | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

const tlsEnv = () => ({
  TLS_ENABLE: 'true',
  TLS_SERVER_KEY: certificates.pki.serverKey,
  TLS_SERVER_CERT: certificates.pki.serverCert,
  TLS_SERVER_PORT: '0',
})

async function start(env: Record<string, string>): Promise<RunningProxy> {
  running = await startProxy({
    showURL: false,
    env: {
      SERVICE_URL: upstream.url,
      SERVICE_API_TOKEN: 't',
      SERVICE_PROXY_CLIENT_KEYS: 'k',
      HOST: '127.0.0.1',
      PORT: '0',
      STORAGE_PROVIDER: 'memory',
      SERVICE_METRICS_INTERVAL: '0',
      ...env,
    },
  })
  await expect.poll(() => running!.app.ready, { timeout: 5_000 }).toBe(true)
  return running
}

/** One HTTPS GET trusting only the test's CA; resolves with the status, the body and the protocol used. */
function getHttps(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; protocol: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, headers, ca: readFileSync(certificates.pki.ca), agent: false },
      (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            protocol: (res.socket as import('node:tls').TLSSocket).getProtocol() ?? '',
          }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('TLS_ENABLE', () => {
  it('answers HTTPS on TLS_SERVER_PORT with a certificate the client verifies, and HTTP beside it, the same app on both', async () => {
    const proxy = await start(tlsEnv())
    expect(proxy.httpsPort).toBeGreaterThan(0)
    const secure = await getHttps(proxy.httpsPort!, '/proxy?userId=1', { authorization: 'k' })
    expect(secure.status).toBe(200)
    expect(secure.protocol).toMatch(/^TLSv1\.[23]$/)
    const plain = await fetch(`${proxy.url}?userId=1`, { headers: { authorization: 'k' } })
    expect(await plain.text()).toBe(secure.body)
    expect((await getHttps(proxy.httpsPort!, '/proxy')).status).toBe(401)
  })

  it('refuses a client that does not trust the certificate (a real handshake)', async () => {
    const proxy = await start(tlsEnv())
    const untrusting = new Promise((resolve, reject) =>
      httpsRequest({ host: '127.0.0.1', port: proxy.httpsPort, path: '/proxy/health', agent: false }, resolve)
        .on('error', reject)
        .end(),
    )
    await expect(untrusting).rejects.toThrow(/self-signed certificate in certificate chain|unable to verify/)
  })

  it('with REDIRECT_HTTP_TO_HTTPS, redirects every HTTP request to the same path on the HTTPS port', async () => {
    const proxy = await start({ ...tlsEnv(), REDIRECT_HTTP_TO_HTTPS: 'true' })
    const res = await fetch(`http://127.0.0.1:${proxy.port}/proxy?userId=1`, {
      redirect: 'manual',
      headers: { authorization: 'k' },
    })
    expect(res.status).toBe(308)
    expect(res.headers.get('location')).toBe(`https://127.0.0.1:${proxy.httpsPort}/proxy?userId=1`)
    expect((await getHttps(proxy.httpsPort!, '/proxy/health')).body).toBe('ok')
  })

  it('is off by default: no HTTPS port', async () => {
    expect((await start({})).httpsPort).toBeUndefined()
  })
})

describe('TLS configuration', () => {
  it.each([
    [
      () => ({ TLS_ENABLE: 'true', TLS_SERVER_CERT: certificates.pki.serverCert }),
      /^TLS_SERVER_KEY is required with TLS_ENABLE/,
    ],
    [
      () => ({ TLS_ENABLE: 'true', TLS_SERVER_KEY: certificates.pki.serverKey }),
      /^TLS_SERVER_CERT is required with TLS_ENABLE/,
    ],
    [
      () => ({ ...tlsEnv(), TLS_SERVER_CERT: `${certificates.dir}/missing.crt` }),
      /^TLS_SERVER_CERT cannot be read: .*missing\.crt \(ENOENT\)$/,
    ],
    [() => ({ ...tlsEnv(), TLS_SERVER_KEY: certificates.pki.serverCert }), /^TLS_SERVER_KEY is not a PEM private key/],
    [() => ({ ...tlsEnv(), TLS_SERVER_CERT: certificates.pki.serverKey }), /^TLS_SERVER_CERT is not a PEM certificate/],
    [
      () => ({ ...tlsEnv(), TLS_SERVER_KEY: certificates.pki.otherKey }),
      /^TLS_SERVER_KEY does not match the certificate in TLS_SERVER_CERT$/,
    ],
    [() => ({ ...tlsEnv(), TLS_SERVER_PORT: '70000' }), /^TLS_SERVER_PORT must be between 0 and 65535/],
  ])('refuses %#, naming the variable', async (env, message) => {
    await expect(createProxyConfig({}, { ...REQUIRED, ...env() })).rejects.toThrow(message)
  })

  it("defaults to Edge's port 3043", async () => {
    expect((await createProxyConfig({}, { ...REQUIRED, ...tlsEnv(), TLS_SERVER_PORT: '' })).tls).toMatchObject({
      port: 3043,
      redirectHttp: false,
    })
  })
})

describe('TLS with WORKERS=2', () => {
  let primary: ChildProcess | undefined
  afterAll(async () => {
    if (primary && primary.exitCode === null) {
      primary.kill('SIGTERM')
      await new Promise((resolve) => primary!.once('exit', resolve))
    }
  })

  it('serves HTTPS from every worker on the shared port', async () => {
    const [port, httpsPort] = [await freePort(), await freePort()]
    let output = ''
    primary = spawn(process.execPath, [CLI], {
      env: {
        PATH: process.env.PATH ?? '',
        WORKERS: '2',
        ...REQUIRED,
        SERVICE_URL: upstream.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        STORAGE_PROVIDER: 'memory',
        SERVICE_METRICS_INTERVAL: '0',
        ...tlsEnv(),
        TLS_SERVER_PORT: String(httpsPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    primary.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    primary.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    await until(() => output.includes('listening on'), 'the listening line', 15_000)
    expect(output).toContain(`HTTPS:    https://127.0.0.1:${httpsPort}`)
    await until(
      async () => (await getHttps(httpsPort, '/internal-backstage/ready').catch(() => ({ status: 0 }))).status === 200,
      'both workers ready over HTTPS',
      15_000,
    )
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        getHttps(httpsPort, '/proxy?userId=1', { authorization: 'k', connection: 'close' }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200])
  }, 40_000)
})

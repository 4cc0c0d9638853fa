import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../src/logger.js'
import { CLIENT_KEY, startTestProxy, startUpstreamWithTokens, type TestProxy, useServers } from './helpers/proxy.js'
import { until } from './helpers/until.js'

// The Prometheus scrape through a real listening proxy (docs/operations.md lists every metric):
// Edge's names where Edge has the metric, label sets bounded whatever callers send, the upstream
// calls by outcome, the switches that turn the open routes off, and the request log.

const servers = useServers()
const IDENTITY = { serviceAppName: 'edge-dashboards', serviceInstanceId: 'vexil-1' }
const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const TOKENS = { client: '*:development.client-secret-1', frontend: '*:development.frontend-secret-1' }

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The exposition format's samples (comments skipped). */
function parse(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return samples
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v))

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  return parse(await response.text())
}

/** Scrapes until `done` holds of the samples, and returns them. */
async function scrapeUntil(proxy: TestProxy, done: (samples: Sample[]) => boolean): Promise<Sample[]> {
  let samples: Sample[] = []
  await until(async () => done((samples = await scrape(proxy.at('/internal-backstage/metrics')))), 'the scrape')
  return samples
}

describe('Prometheus scrape', () => {
  it('counts requests by route template, method and status class in Edge histogram', async () => {
    const upstream = await servers.upstream(FEATURES)
    const proxy = await servers.proxy(upstream)
    for (let n = 0; n < 3; n++) await fetch(proxy.at(`/proxy?userId=${n}`), { headers: { authorization: CLIENT_KEY } })
    await fetch(proxy.at('/proxy'), { headers: { authorization: 'wrong' } })
    await fetch(proxy.at('/made/up'))
    await until(async () => {
      const samples = await scrape(proxy.at('/internal-backstage/metrics'))
      return (
        find(samples, 'http_server_duration_milliseconds_count', { endpoint: '/proxy', status: '200' })[0]?.value === 3
      )
    }, 'three answers counted')
    const text = await (await fetch(proxy.at('/proxy/internal-backstage/prometheus'))).text()
    // The old proxy's three come first, as it listed them.
    expect([...text.matchAll(/^# TYPE (\S+)/gm)].slice(0, 3).map((match) => match[1])).toEqual([
      'last_metrics_update_epoch_timestamp_ms',
      'last_metrics_fetch_epoch_timestamp_ms',
      'unleash_proxy_up',
    ])
    const samples = parse(text)
    expect(
      find(samples, 'http_server_duration_milliseconds_count', { endpoint: '/proxy', method: 'GET', status: '401' })[0]
        ?.value,
    ).toBe(1)
    expect(
      find(samples, 'http_server_duration_milliseconds_count', { endpoint: '/{unknown}', status: '404' })[0]?.value,
    ).toBe(1)
    const buckets = find(samples, 'http_server_duration_milliseconds_bucket', { endpoint: '/proxy', status: '200' })
    expect(buckets.at(-1)).toMatchObject({ labels: { le: '+Inf' }, value: 3 })
    // The old proxy's three names, and the process metrics.
    for (const name of [
      'last_metrics_update_epoch_timestamp_ms',
      'last_metrics_fetch_epoch_timestamp_ms',
      'unleash_proxy_up',
    ])
      expect(find(samples, name)).toHaveLength(1)
    expect(find(samples, 'process_cpu_user_seconds_total')).toHaveLength(1)
    expect(find(samples, 'connected_streaming_clients')[0]?.value).toBe(0)
  })

  it("Edge's request counter and response sizes, labelled with the proxy's app name and instance id", async () => {
    const upstream = await servers.upstream(FEATURES)
    const proxy = await servers.proxy(upstream, IDENTITY)
    const lengths: number[] = []
    for (const authorization of [CLIENT_KEY, CLIENT_KEY, 'wrong']) {
      const response = await fetch(proxy.at('/proxy'), { headers: { authorization } })
      await response.arrayBuffer()
      lengths.push(Number(response.headers.get('content-length')))
    }
    const samples = await scrapeUntil(
      proxy,
      (all) => find(all, 'http_requests_total', { endpoint: '/proxy' }).length === 2,
    )
    const identity = { app_name: 'edge-dashboards', instance_id: 'vexil-1' }
    const proxyGet = { method: 'GET', endpoint: '/proxy', ...identity }
    expect(find(samples, 'http_requests_total', { ...proxyGet, status: '200' })[0]?.value).toBe(2)
    expect(find(samples, 'http_requests_total', { ...proxyGet, status: '401' })[0]?.value).toBe(1)
    expect(find(samples, 'http_server_duration_milliseconds_count', { ...proxyGet, status: '200' })[0]?.value).toBe(2)
    // Sizes by method and endpoint, every status together, as Edge labels them.
    const size = (name: string) => find(samples, name, proxyGet)
    expect(size('http_response_size_count')).toHaveLength(1)
    expect(size('http_response_size_count')[0]!.labels).toEqual(proxyGet)
    expect(size('http_response_size_count')[0]!.value).toBe(3)
    expect(size('http_response_size_sum')[0]!.value).toBe(lengths.reduce((sum, length) => sum + length, 0))
    expect(size('http_response_size_bucket').map((sample) => sample.labels.le)).toEqual([
      ...['5', '10', '100', '250', '500', '750', '1000', '2500', '5000', '10000', '25000', '50000', '100000'],
      '+Inf',
    ])
    // The scrapes themselves are counted, as before Edge's names (Edge leaves them out).
    expect(
      find(samples, 'http_requests_total', { endpoint: '/internal-backstage/metrics' }).length,
    ).toBeLessThanOrEqual(1)
  })

  it("Edge's upstream timings and failures by status code; a call with no answer is Vexil's network_error alone", async () => {
    const upstream = await startUpstreamWithTokens(FEATURES, TOKENS)
    servers.defer(() => upstream.close())
    upstream.fail({ status: 500 }, '/client/register')
    const proxy = await servers.proxy(upstream, {
      ...IDENTITY,
      serviceApiToken: TOKENS.client,
      refreshInterval: 100,
      metricsInterval: 60_000,
    })
    const identity = { app_name: 'edge-dashboards', instance_id: 'vexil-1' }
    let samples = await scrapeUntil(
      proxy,
      (all) =>
        find(all, 'client_register_failures', { status_code: '500' }).length === 1 &&
        find(all, 'client_feature_fetch_count', { status_code: '200' }).length === 1,
    )
    expect(find(samples, 'client_register_failures', { status_code: '500', ...identity })[0]?.value).toBe(1)
    expect(find(samples, 'client_feature_fetch_bucket', { status_code: '200', ...identity }).at(-1)?.labels.le).toBe(
      '+Inf',
    )
    expect(find(samples, 'client_feature_fetch_bucket', { status_code: '200' }).map((s) => s.labels.le)).toEqual([
      ...['1', '2', '5', '10', '20', '50', '100', '200', '500', '1000', '5000'],
      '+Inf',
    ])
    expect(find(samples, 'client_feature_fetch_failures')).toHaveLength(0)

    upstream.fail({ status: 500 }, '/client/features')
    samples = await scrapeUntil(proxy, (all) => find(all, 'client_feature_fetch_failures').length === 1)
    expect(
      find(samples, 'client_feature_fetch_failures', { status_code: '500', ...identity })[0]!.value,
    ).toBeGreaterThan(0)
    expect(find(samples, 'client_feature_fetch_count', { status_code: '500' })[0]!.value).toBeGreaterThan(0)
    upstream.fail(undefined, '/client/features')

    for (const status of [401, 500]) {
      upstream.fail({ status }, '/edge/validate')
      await fetch(proxy.at('/api/client/features'), { headers: { authorization: `*:development.unknown-${status}` } })
      samples = await scrapeUntil(
        proxy,
        (all) => find(all, 'token_validation_failures', { status_code: String(status) }).length === 1,
      )
      expect(find(samples, 'token_validation_failures', { status_code: String(status), ...identity })[0]!.value).toBe(1)
    }
    expect(find(samples, 'token_validation_failures', { status_code: '200' })).toHaveLength(0)
  })

  it('a refused upstream connection adds no status_code series, only network_error', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9/api', {
      ...IDENTITY,
      waitReady: false,
      refreshInterval: 100,
    })
    servers.defer(() => proxy.close())
    const samples = await scrapeUntil(
      proxy,
      (all) =>
        (find(all, 'vexil_proxy_upstream_requests_total', { kind: 'features', outcome: 'network_error' })[0]?.value ??
          0) > 0,
    )
    for (const name of ['client_feature_fetch_count', 'client_feature_fetch_failures', 'client_register_failures'])
      expect(find(samples, name), name).toHaveLength(0)
  })

  it('a flood of made-up paths, methods and tokens leaves the series count where it was', async () => {
    const upstream = await startUpstreamWithTokens(FEATURES, TOKENS)
    servers.defer(() => upstream.close())
    const proxy = await servers.proxy(upstream, { serviceApiToken: TOKENS.client })
    const flood = async (from: number, count: number) => {
      for (let n = from; n < from + count; n++) {
        await fetch(proxy.at(`/made/up/${n}?token=${n}`))
        await fetch(proxy.at(`/api/client/features/flag-${n}`), {
          headers: { authorization: `*:development.made-up-${n}` },
        })
        await fetch(proxy.at(`/api/frontend?x=${n}`), { headers: { authorization: `made-up-${n}` } })
        await fetch(proxy.at(`/proxy/${n}`), { method: 'PATCH' })
      }
    }
    await flood(0, 5)
    // The process's own series (GC kinds, active resources) come and go by themselves.
    const series = async () =>
      (await scrape(proxy.at('/internal-backstage/metrics')))
        .filter((sample) => !/^(process|nodejs)_/.test(sample.name))
        .map((sample) => `${sample.name}${JSON.stringify(sample.labels)}`)
    await series() // the scrape's own series
    const before = await series()
    for (const name of ['http_requests_total', 'http_response_size_count', 'http_server_duration_milliseconds_count'])
      expect(
        before.some((one) => one.startsWith(`${name}{`)),
        name,
      ).toBe(true)
    await flood(5, 100)
    expect(await series()).toEqual(before)
  })

  it('counts upstream calls by kind and outcome, and a failing upstream moves the error counters', async () => {
    const upstream = await startUpstreamWithTokens(FEATURES, TOKENS)
    servers.defer(() => upstream.close())
    const proxy = await servers.proxy(upstream, { refreshInterval: 100 })
    await until(
      async () =>
        (await fetch(proxy.at('/api/client/features'), { headers: { authorization: TOKENS.client } })).status === 200,
      "the token scope's flags",
    )
    upstream.fail({ status: 500 })
    await until(async () => {
      const samples = await scrape(proxy.at('/internal-backstage/metrics'))
      return (
        find(samples, 'vexil_proxy_upstream_requests_total', { kind: 'features', outcome: 'server_error' }).length === 1
      )
    }, 'a failed fetch counted')
    const samples = await scrape(proxy.at('/internal-backstage/metrics'))
    expect(
      find(samples, 'vexil_proxy_upstream_requests_total', { kind: 'features', outcome: 'ok' })[0]?.value,
    ).toBeGreaterThan(0)
    expect(
      find(samples, 'vexil_proxy_upstream_requests_total', { kind: 'validation', outcome: 'ok' })[0]?.value,
    ).toBeGreaterThan(0)
    expect(find(samples, 'vexil_proxy_tokens', { kind: 'client' })[0]?.value).toBe(1)
    const age = find(samples, 'vexil_proxy_sync_age_seconds', { environment: 'development', projects: '*' })
    expect(age).toHaveLength(1)
    expect(age[0]!.value).toBeLessThan(60)
  })

  it('every metric a scrape lists is in the table of docs/operations.md', async () => {
    const upstream = await servers.upstream(FEATURES)
    const proxy = await servers.proxy(upstream)
    const text = await (await fetch(proxy.at('/internal-backstage/metrics'))).text()
    const names = [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]!)
    const docs = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8')
    for (const name of names.filter((one) => !/^(process|nodejs)_/.test(one)))
      expect(docs, name).toContain(`\`${name}\``)
    expect(names).toEqual(expect.arrayContaining(['client_feature_fetch', 'token_validation_failures']))
  })

  it('DISABLE_METRICS_ENDPOINT and DISABLE_TOKENS_ENDPOINT answer 404, as in Edge', async () => {
    const upstream = await servers.upstream(FEATURES)
    const proxy = await servers.proxy(upstream, {
      env: { DISABLE_METRICS_ENDPOINT: 'true', DISABLE_TOKENS_ENDPOINT: 'true' },
    })
    for (const path of [
      '/internal-backstage/metrics',
      '/proxy/internal-backstage/prometheus',
      '/internal-backstage/tokens',
    ])
      expect((await fetch(proxy.at(path))).status, path).toBe(404)
    expect((await fetch(proxy.at('/internal-backstage/health'))).status).toBe(200)
    expect((await fetch(proxy.at('/proxy/health'))).status).toBe(200)
  })
})

describe('request log', () => {
  it('one line per request, with the route and the credential kind, never a secret', async () => {
    const upstream = await startUpstreamWithTokens(FEATURES, TOKENS)
    servers.defer(() => upstream.close())
    const proxy = await servers.proxy(upstream, { env: { LOG_REQUESTS: 'true' } })
    await until(
      async () =>
        (await fetch(proxy.at('/api/client/features'), { headers: { authorization: TOKENS.client } })).status === 200,
      "the token scope's flags",
    )
    proxy.logs.length = 0
    await fetch(proxy.at(`/proxy?userId=1&token=${CLIENT_KEY}`), { headers: { authorization: CLIENT_KEY } })
    await fetch(proxy.at(`/api/client/features?secret=${TOKENS.client}`), { headers: { authorization: TOKENS.client } })
    await fetch(proxy.at(`/api/frontend?t=${TOKENS.frontend}`), { headers: { authorization: TOKENS.frontend } })
    await fetch(proxy.at('/nowhere?userId=1'))
    await until(() => proxy.logs.filter((line) => line.includes('request ')).length === 4, 'four lines')
    const lines = proxy.logs.filter((line) => line.includes('request '))
    expect(lines[0]).toMatch(/request GET \/proxy 200 [\d.]+ ms route=\/proxy token=client-key/)
    expect(lines[1]).toMatch(/request GET \/api\/client\/features 200 .* token=client/)
    expect(lines[2]).toMatch(/request GET \/api\/frontend 200 .* token=frontend/)
    expect(lines[3]).toMatch(/request GET \/nowhere 404 .* route=- token=none/)
    for (const line of lines)
      for (const secret of [CLIENT_KEY, TOKENS.client, TOKENS.frontend, 'client-secret', 'frontend-secret', '?'])
        expect(line).not.toContain(secret)
  })

  it('JSON lines under LOG_FORMAT=json, and on at LOG_LEVEL=debug as Edge at RUST_LOG=debug', async () => {
    const upstream = await servers.upstream(FEATURES)
    const lines: string[] = []
    const proxy = await servers.proxy(upstream, {
      env: { LOG_LEVEL: 'debug' },
      logger: createLogger({ level: 'debug', json: true, write: (line) => lines.push(line) }),
    })
    await fetch(proxy.at(`/proxy?userId=1&key=${CLIENT_KEY}`), { headers: { authorization: CLIENT_KEY } })
    await until(() => lines.some((line) => line.includes('"request GET')), 'a JSON line')
    const line = JSON.parse(lines.find((entry) => entry.includes('"request GET'))!)
    expect(line.level).toBe('info')
    expect(line.args[0]).toMatchObject({
      method: 'GET',
      route: '/proxy',
      path: '/proxy',
      status: 200,
      tokenKind: 'client-key',
    })
    expect(JSON.stringify(line)).not.toContain(CLIENT_KEY)
  })

  it('is off by default', async () => {
    const upstream = await servers.upstream(FEATURES)
    const proxy = await servers.proxy(upstream)
    await fetch(proxy.at('/proxy?userId=1'), { headers: { authorization: CLIENT_KEY } })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(proxy.logs.some((line) => line.includes('request GET'))).toBe(false)
  })
})

// Streaming latency (issue 18): from an admin-API change on the service to (a) a changed /proxy
// answer and (b) a changed isEnabled in the real unleash-client in streaming mode, over 100
// changes; beside it, the same with the proxy polling (STREAMING=false, the default 5 s
// interval), a few changes only. Service (PGlite), proxy and SDK run in this process, on
// 127.0.0.1: the figures include sharing one event loop, so they are on the slow side.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLogger, createProxyApp, createProxyConfig } from '@vexil/proxy'
import { silentLogger, startService } from '@vexil/service'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { timeUntil } from '@vexil/test-fixtures/wait-for.ts'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import type { BudgetRow } from './budget.js'
import { median } from './measure.js'

const CHANGES = Number(process.env.BENCH_STREAMING_CHANGES ?? 100)
const POLLED_CHANGES = Number(process.env.BENCH_STREAMING_POLLED_CHANGES ?? 4)
const ADMIN = '*:*.bench-streaming-admin-secret-0123456789abcdef'
const CLIENT = '*:development.bench-streaming-client-secret-0123456789abcdef'
const KEY = 'bench-streaming-key'
const FLAG = 'streamed-flag'

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!

async function startProxy(
  serviceUrl: string,
  streaming: boolean,
): Promise<{ url: string; close: () => Promise<void> }> {
  const config = await createProxyConfig(
    {
      serviceUrl: `${serviceUrl}/api`,
      serviceApiToken: CLIENT,
      clientKeys: [KEY],
      metricsInterval: 0,
      streaming,
      logger: createLogger({ level: 'error', json: false, write: () => {} }),
    },
    {},
  )
  const app = createProxyApp({ config, storage: null })
  const server: Server = createServer(app.listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  await app.start()
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await app.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export async function runStreamingBench(): Promise<BudgetRow[]> {
  const data = tempDir('bench-streaming')
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: data.path,
    logger: silentLogger,
    env: { INIT_ADMIN_API_TOKENS: ADMIN, INIT_CLIENT_API_TOKENS: CLIENT },
  })
  const admin = async (path: string, body?: unknown) => {
    const response = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    })
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  }
  const toggle = (enabled: boolean) =>
    admin(`/api/admin/projects/default/features/${FLAG}/environments/development/${enabled ? 'on' : 'off'}`)
  await admin('/api/admin/projects/default/features', { name: FLAG })
  await admin(`/api/admin/projects/default/features/${FLAG}/environments/development/strategies`, { name: 'default' })

  const streamed = await startProxy(service.url, true)
  const polled = await startProxy(service.url, false)
  const client = new Unleash({
    url: `${service.url}/api/`,
    appName: 'bench-streaming',
    customHeaders: { Authorization: CLIENT },
    disableMetrics: true,
    refreshInterval: 60_000,
    storageProvider: new InMemStorageProvider(),
    experimentalMode: { type: 'streaming' },
  })
  client.on('error', () => {})
  client.on('warn', () => {})
  const proxyHas = async (url: string, enabled: boolean) => {
    const body = (await (await fetch(`${url}/proxy`, { headers: { authorization: KEY } })).json()) as {
      toggles: { name: string }[]
    }
    return body.toggles.some((toggle) => toggle.name === FLAG) === enabled
  }
  try {
    await new Promise<void>((resolve) => client.once('synchronized', () => resolve()))
    const toProxy: number[] = []
    const toSdk: number[] = []
    for (let i = 0; i < CHANGES; i++) {
      const enabled = i % 2 === 0
      // From the admin request's start: the change can arrive before its answer does.
      const start = performance.now()
      await toggle(enabled)
      const [proxyMs, sdkMs] = await Promise.all([
        timeUntil(() => proxyHas(streamed.url, enabled), 'the streaming proxy', {
          since: start,
          timeoutMs: 10_000,
          everyMs: 2,
        }),
        timeUntil(() => client.isEnabled(FLAG) === enabled, 'the streaming SDK', {
          since: start,
          timeoutMs: 10_000,
          everyMs: 2,
        }),
      ])
      toProxy.push(proxyMs)
      toSdk.push(sdkMs)
    }
    const toPolled: number[] = []
    for (let i = 0; i < POLLED_CHANGES; i++) {
      const enabled = (CHANGES + i) % 2 === 0
      const start = performance.now()
      await toggle(enabled)
      toPolled.push(
        await timeUntil(() => proxyHas(polled.url, enabled), 'the polling proxy', {
          since: start,
          timeoutMs: 30_000,
          everyMs: 2,
        }),
      )
    }
    const row = (name: string, values: number[]) =>
      `| ${name} | ${values.length} | ${median(values).toFixed(0)} ms | ${percentile(values, 99).toFixed(0)} ms | ${Math.max(...values).toFixed(0)} ms |`
    console.log(
      `\n| from an admin change to | changes | median | p99 | max |\n|---|---:|---:|---:|---:|\n${row('/proxy (proxy streaming)', toProxy)}\n${row('isEnabled in unleash-client, streaming', toSdk)}\n${row('/proxy (proxy polling, 5 s)', toPolled)}`,
    )
    return [
      {
        metric: `admin change to a changed /proxy answer, streaming: p99 of ${CHANGES}`,
        value: percentile(toProxy, 99),
        unit: 'ms',
        kind: 'max',
        limit: 1_000,
        absolute: true,
      },
      {
        metric: `admin change to isEnabled in a streaming unleash-client: p99 of ${CHANGES}`,
        value: percentile(toSdk, 99),
        unit: 'ms',
        kind: 'max',
        limit: 1_000,
        absolute: true,
      },
      {
        metric: `admin change to a changed /proxy answer, polling every 5 s: median of ${POLLED_CHANGES} (reference)`,
        value: median(toPolled),
        unit: 'ms',
        kind: 'max',
        limit: Number.POSITIVE_INFINITY,
        absolute: true,
      },
    ]
  } finally {
    client.destroy()
    await streamed.close()
    await polled.close()
    await service.close()
    data.remove()
  }
}

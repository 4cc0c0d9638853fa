// The Vexil proxy as users run it (the built package), against the benchmark's fake upstream
// (upstream.mjs) in a process of its own: the payload it serves is not counted in the proxy's
// memory. The upstream validates the benchmark's frontend and client tokens, so both /proxy
// (client key) and /api/frontend (frontend token) answer. argv: port, payloadFile, cacheSize,
// and optionally the refresh interval in ms (default 60000). Over IPC it says 'ready'; asked
// 'stats', it answers the process's memory (with V8's heap spaces) and CPU figures, the
// upstream's feature fetches, each engine load's duration in ms, and how long start() took.
import { fork } from 'node:child_process'
import { createServer } from 'node:http'
import { hostname } from 'node:os'
import { getHeapSpaceStatistics } from 'node:v8'
import { createEngine } from '@vexil/engine'
import { createProxyApp, createProxyConfig } from '@vexil/proxy'
const [port, payloadFile, cacheSize, refreshInterval = '60000'] = process.argv.slice(2)
const CLIENT_TOKEN = '*:development.bench-client'
const upstream = fork(new URL('./upstream.mjs', import.meta.url), [payloadFile], {
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
})
const upstreamPort = await new Promise((resolve, reject) => {
  upstream.once('message', (message) => resolve(message.port))
  upstream.once('exit', (code) => reject(new Error(`upstream.mjs exited with code ${code}`)))
})
const askUpstream = () =>
  new Promise((resolve) => {
    upstream.once('message', (message) => resolve(message.featureRequests))
    upstream.send('feature-requests')
  })
// SERVICE_API_TOKEN is the client token, as a real deployment's is (an Unleash client token
// names its project and environment): the static scope then covers TOKENS and the frontend
// token, and the proxy syncs the flags once. With an opaque 'bench' it synced them twice, one
// token scope beside the static one, and held two compiled copies of the payload.
const config = await createProxyConfig(
  {
    serviceUrl: `http://127.0.0.1:${upstreamPort}/api`,
    serviceApiToken: CLIENT_TOKEN,
    clientKeys: ['bench-key'],
    tokens: [CLIENT_TOKEN],
    metricsInterval: 0,
    refreshInterval: Number(refreshInterval),
    responseCacheSize: Number(cacheSize),
  },
  {},
)
// The engine the proxy makes by default (no custom strategies here), with its loads timed: how
// long compiling a payload takes inside the server, and whether an unchanged poll compiles.
const loads = []
const newEngine = () => {
  const engine = createEngine({ hostname: process.env.HOSTNAME ?? hostname() })
  const load = engine.load
  engine.load = (state) => {
    const started = performance.now()
    const warnings = load(state)
    loads.push(performance.now() - started)
    return warnings
  }
  return engine
}
const started = performance.now()
const proxy = createProxyApp({ config, storage: null, newEngine })
await proxy.start()
const startMs = performance.now() - started
createServer(proxy.listener).listen(Number(port), '127.0.0.1', () => process.send?.('ready'))
process.on('message', async (message) => {
  if (message !== 'stats') return
  process.send?.({
    memory: process.memoryUsage(),
    spaces: getHeapSpaceStatistics(),
    cpu: process.cpuUsage(),
    featureRequests: await askUpstream(),
    loads,
    startMs,
  })
})
const stop = () => {
  upstream.kill('SIGINT')
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

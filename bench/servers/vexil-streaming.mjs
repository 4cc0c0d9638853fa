// The Vexil proxy as users run it (the built package), following a streaming upstream
// (streaming-upstream.mjs, started by the benchmark): the proxy of the streams benchmark.
// argv: port, upstream API URL. Over IPC it says 'ready' once it streams from the upstream;
// asked 'stats', it answers the process's memory and its open SDK streams.
import { createServer } from 'node:http'
import { createProxyApp, createProxyConfig } from '@vexil/proxy'
const [port, upstreamUrl] = process.argv.slice(2)
const CLIENT_TOKEN = '*:development.bench-client'
const config = await createProxyConfig(
  {
    serviceUrl: upstreamUrl,
    serviceApiToken: CLIENT_TOKEN,
    clientKeys: ['bench-key'],
    tokens: [CLIENT_TOKEN],
    metricsInterval: 0,
    refreshInterval: 60_000,
  },
  {},
)
const proxy = createProxyApp({ config, storage: null })
await proxy.start()
createServer(proxy.listener).listen(Number(port), '127.0.0.1', () => process.send?.('ready'))
process.on('message', (message) => {
  if (message === 'stats') process.send?.({ memory: process.memoryUsage(), streams: proxy.streams })
})
const stop = () => process.exit(0)
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
process.on('disconnect', stop)

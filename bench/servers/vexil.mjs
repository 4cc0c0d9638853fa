// The Vexil proxy as users run it (the built package), against an in-process upstream that
// serves the benchmark payload.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { createProxyApp, createProxyConfig } from '@vexil/proxy'
const [port, payloadFile, cacheSize] = process.argv.slice(2)
const payload = readFileSync(payloadFile, 'utf8')
const upstream = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', etag: '"bench"' })
  res.end(payload)
})
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve))
const config = await createProxyConfig(
  { serviceUrl: `http://127.0.0.1:${upstream.address().port}/api`, serviceApiToken: 'bench', clientKeys: ['bench-key'], metricsInterval: 0, refreshInterval: 60_000, responseCacheSize: Number(cacheSize) },
  {},
)
const proxy = createProxyApp({ config, storage: null })
await proxy.start()
createServer(proxy.listener).listen(Number(port), '127.0.0.1', () => process.send?.('ready'))
process.on('SIGINT', () => process.exit(0))

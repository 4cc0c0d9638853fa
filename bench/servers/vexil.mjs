// The Vexil proxy as users run it (the built package), against an in-process upstream that
// serves the benchmark payload and validates the benchmark's frontend and client tokens, so both
// /proxy (client key) and /api/frontend (frontend token) answer.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { createProxyApp, createProxyConfig } from '@vexil/proxy'
const [port, payloadFile, cacheSize] = process.argv.slice(2)
const payload = readFileSync(payloadFile, 'utf8')
const CLIENT_TOKEN = '*:development.bench-client'
const FRONTEND_TOKEN = '*:development.bench-frontend'
const upstream = createServer((req, res) => {
  if (req.url === '/edge/validate') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ tokens: [CLIENT_TOKEN, FRONTEND_TOKEN].map((token) => ({ token, type: token === CLIENT_TOKEN ? 'client' : 'frontend', projects: ['*'], environment: 'development' })) }))
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', etag: '"bench"' })
  res.end(payload)
})
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve))
const config = await createProxyConfig(
  { serviceUrl: `http://127.0.0.1:${upstream.address().port}/api`, serviceApiToken: 'bench', clientKeys: ['bench-key'], tokens: [CLIENT_TOKEN], metricsInterval: 0, refreshInterval: 60_000, responseCacheSize: Number(cacheSize) },
  {},
)
const proxy = createProxyApp({ config, storage: null })
await proxy.start()
createServer(proxy.listener).listen(Number(port), '127.0.0.1', () => process.send?.('ready'))
process.on('SIGINT', () => process.exit(0))

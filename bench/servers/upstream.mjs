// The benchmark's fake upstream, in a process of its own so the payload it serves (megabytes of
// JSON with 10k flags) is not counted in the proxy's resident memory. It serves the payload
// file at any path but one flag's (404, as Unleash answers the proxy's token check for a made-up
// flag) with a fixed ETag (an If-None-Match poll gets 304, as from Unleash) and
// validates the benchmark's client and frontend tokens on /edge/validate. argv: payloadFile;
// it sends its port over IPC, and exits when its parent goes (the IPC channel closes).
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
const [payloadFile] = process.argv.slice(2)
const payload = readFileSync(payloadFile)
const CLIENT_TOKEN = '*:development.bench-client'
const FRONTEND_TOKEN = '*:development.bench-frontend'
const ETAG = '"bench"'
let featureRequests = 0
const upstream = createServer((req, res) => {
  // The OTLP endpoint of the tracing rows: spans are taken and dropped.
  if (req.url === '/v1/traces') {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-length': '0' }).end())
    return
  }
  if (req.url === '/edge/validate') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        tokens: [CLIENT_TOKEN, FRONTEND_TOKEN].map((token) => ({
          token,
          type: token === CLIENT_TOKEN ? 'client' : 'frontend',
          projects: ['*'],
          environment: 'development',
        })),
      }),
    )
    return
  }
  const path = (req.url ?? '').split('?')[0]
  // One flag by name, as the proxy's token check asks for a made-up one: Unleash answers 404.
  if (/\/(client|frontend)\/features\/[^/]+$/.test(path)) {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"name":"NotFoundError","message":"Could not find the flag"}')
    return
  }
  if (path.endsWith('/client/features')) featureRequests++
  if (req.headers['if-none-match'] === ETAG) {
    res.writeHead(304, { etag: ETAG })
    res.end()
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', etag: ETAG })
  res.end(payload)
})
upstream.listen(0, '127.0.0.1', () => process.send?.({ port: upstream.address().port }))
process.on('message', (message) => {
  if (message === 'feature-requests') process.send?.({ featureRequests })
})
process.on('disconnect', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))

// A streaming upstream for the streams benchmark, in a process of its own: it serves the
// payload file on /api/client/features, a stream on /api/client/streaming (a hydration on
// connect, then one feature-updated per change), and validates the benchmark's tokens. Told
// `{ change: n }` over IPC, it changes the flag `bench-streamed` (on for even n, its
// description `change-<n>`) and sends it down every open stream at once. argv: payloadFile; it
// sends its port over IPC and exits when its parent goes.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
const [payloadFile] = process.argv.slice(2)
const payload = JSON.parse(readFileSync(payloadFile, 'utf8'))
const CLIENT_TOKEN = '*:development.bench-client'
const FLAG = 'bench-streamed'
const flag = (n) => ({
  name: FLAG,
  project: 'default',
  type: 'release',
  description: `change-${n}`,
  enabled: n % 2 === 0,
  strategies: [{ name: 'default', constraints: [] }],
})
let revision = 1
payload.features.push(flag(0))
const streams = new Set()
const upstream = createServer((req, res) => {
  if (req.url === '/edge/validate') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        tokens: [{ token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' }],
      }),
    )
    return
  }
  if (req.url?.startsWith('/api/client/streaming')) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    res.write(
      `event: unleash-connected\nid: ${revision}\ndata: ${JSON.stringify({ events: [{ type: 'hydration', eventId: revision, features: payload.features, segments: payload.segments ?? [] }] })}\n\n`,
    )
    streams.add(res)
    res.on('close', () => streams.delete(res))
    return
  }
  if (req.url?.startsWith('/api/client/features')) {
    res.writeHead(200, { 'content-type': 'application/json', etag: `"${revision}"` })
    res.end(JSON.stringify(payload))
    return
  }
  res.writeHead(202)
  res.end()
})
upstream.listen(0, '127.0.0.1', () => process.send?.({ port: upstream.address().port }))
process.on('message', (message) => {
  if (typeof message?.change !== 'number') return
  revision++
  const feature = flag(message.change)
  payload.features[payload.features.length - 1] = feature
  const text = `event: unleash-updated\nid: ${revision}\ndata: ${JSON.stringify({ events: [{ type: 'feature-updated', eventId: revision, feature }] })}\n\n`
  for (const res of streams) res.write(text)
})
const keepAlive = setInterval(() => {
  for (const res of streams) res.write(':keep-alive\n\n')
}, 15_000)
keepAlive.unref()
process.on('disconnect', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))

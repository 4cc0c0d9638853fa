// h3's own overhead on the hot path: an app answering a fixed body (v1 through toNodeListener,
// v2 through its web Request/Response adapter), to choose the version on numbers.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
const [port, bodyFile, version] = process.argv.slice(2)
const body = readFileSync(bodyFile, 'utf8')
const headers = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'public, max-age=2',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
  etag: 'W/"fixed"',
}
let listener
if (version === 'v2') {
  const { H3, toNodeHandler } = await import('h3-v2')
  const app = new H3()
  app.all('/proxy', async (event) => {
    if (event.req.method === 'POST') await event.req.text()
    return new Response(body, { headers })
  })
  listener = toNodeHandler(app)
} else {
  const { createApp, eventHandler, readRawBody, setResponseHeaders, toNodeListener } = await import('h3')
  const app = createApp()
  app.use(
    '/proxy',
    eventHandler(async (event) => {
      if (event.method === 'POST') await readRawBody(event)
      setResponseHeaders(event, headers)
      return body
    }),
  )
  listener = toNodeListener(app)
}
createServer(listener).listen(Number(port), '127.0.0.1', () => process.send?.('ready'))
process.on('SIGINT', () => process.exit(0))

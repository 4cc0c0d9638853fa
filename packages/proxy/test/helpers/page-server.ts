// A page for browser tests, served from its own origin (another port than the proxy's), so the
// browser's requests to the proxy are cross-origin and CORS is exercised for real.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A tiny page server: the HTML at `/`, nothing else (no favicon request fails: 204). */
export async function startPageServer(html: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(html)
    } else {
      res.writeHead(204)
      res.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// What the browser tests share: SDKs from npm bundled for the page, the page served from its own
// origin (another port than the proxy's, so the browser's requests to the proxy are cross-origin
// and CORS is exercised for real), and a record of what reached the proxy.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** A request as it reached the proxy, with the status it got. */
export interface Seen {
  method: string
  path: string
  headers: IncomingMessage['headers']
  status: number
}

/** An `onRequest` for startTestProxy that appends each request to `seen` once it is answered. */
export function recordInto(seen: Seen[]): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) =>
    res.on('finish', () =>
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, status: res.statusCode }),
    )
}

/** `exports` (an ES module's source, importing from npm) bundled for the browser as a script defining `globalName`. */
export async function bundleForBrowser(exports: string, globalName: string): Promise<string> {
  const result = await build({
    stdin: { contents: exports, resolveDir: dirname(fileURLToPath(import.meta.url)), loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName,
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}

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

// REDIRECT_HTTP_TO_HTTPS, as Edge answers it: every request on the HTTP port gets a permanent
// redirect (308: the method and body are kept) to the same host, path and query on the HTTPS port.
import type { IncomingMessage, ServerResponse } from 'node:http'

export function redirectToHttps(httpsPort: number): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const host = hostName(req.headers.host)
    if (host === undefined) {
      res
        .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
        .end('A Host header is required to redirect to HTTPS')
      return
    }
    res.writeHead(308, { location: `https://${host}:${httpsPort}${req.url ?? '/'}`, 'content-length': '0' }).end()
  }
}

/** The Host header without its port (`[::1]:3000` -> `[::1]`); undefined when missing or not a host. */
function hostName(header: string | undefined): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d+)?$/i.exec(header?.trim() ?? '')
  return match?.[1]
}

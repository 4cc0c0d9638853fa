// The network between the proxy and its upstream, made real for tests: a forward proxy that
// tunnels CONNECT requests (as corporate egress proxies do) and counts them, and a TLS front
// that terminates HTTPS before a plain upstream, optionally requiring a client certificate.
import { createServer as createHttpServer } from 'node:http'
import { type AddressInfo, connect, type Server, type Socket } from 'node:net'
import { createServer as createTlsServer, type TLSSocket } from 'node:tls'

export interface ForwardProxy {
  url: string
  /** `host:port` of every tunnel opened, in order. */
  tunnels: string[]
  close(): Promise<void>
}

/** Resolves `upstream.test` to 127.0.0.1: a name only the forward proxy knows. */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const tunnels: string[] = []
  const sockets = new Set<Socket>()
  const server = createHttpServer((_req, res) => res.writeHead(405).end())
  server.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '')
    const [host, port] = (req.url ?? '').split(':')
    const target = connect(Number(port), host === 'upstream.test' ? '127.0.0.1' : host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      target.write(head)
      relay(client, target, sockets)
    })
    target.on('error', () => client.destroy())
  })
  const port = await listen(server)
  return { url: `http://127.0.0.1:${port}`, tunnels, close: () => close(server, sockets) }
}

export interface TlsFront {
  port: number
  /** One entry per TLS connection accepted: the client certificate's subject CN, or undefined. */
  clients: Array<string | undefined>
  close(): Promise<void>
}

/** HTTPS on a free port, relayed as plain TCP to `targetPort`; `clientCa`: require a client certificate it signed. */
export async function startTlsFront(
  targetPort: number,
  tls: { key: Buffer; cert: Buffer; clientCa?: Buffer },
): Promise<TlsFront> {
  const clients: Array<string | undefined> = []
  const sockets = new Set<Socket>()
  const server = createTlsServer(
    {
      key: tls.key,
      cert: tls.cert,
      ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
    },
    (socket: TLSSocket) => {
      const cn = socket.getPeerCertificate().subject?.CN
      clients.push(Array.isArray(cn) ? cn[0] : cn)
      relay(socket, connect(targetPort, '127.0.0.1'), sockets)
    },
  )
  server.on('tlsClientError', () => undefined)
  return { port: await listen(server), clients, close: () => close(server, sockets) }
}

/** Pipes two sockets into each other until either closes; `open` holds them for close(). */
function relay(a: Socket, b: Socket, open: Set<Socket>): void {
  a.pipe(b)
  b.pipe(a)
  for (const socket of [a, b]) {
    open.add(socket)
    socket.on('error', () => undefined)
    socket.on('close', () => {
      open.delete(socket)
      a.destroy()
      b.destroy()
    })
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

function close(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy()
  return new Promise((resolve) => server.close(() => resolve()))
}

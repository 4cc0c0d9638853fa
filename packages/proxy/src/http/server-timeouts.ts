// Slow clients: the limits of the server startProxy listens with (README, Security). Node's own
// defaults let a client that sends part of a request and then nothing hold its connection for
// 60-90 s (headers), or 300 s (a request), and many such clients exhaust the proxy's sockets.
import type { Server } from 'node:http'
import type { ServerTimeouts } from '../config/types.js'

/** Node enforces the headers and request timeouts on a timer; this is how often it looks. */
const CHECK_EVERY_MS = 1_000

export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts): void {
  server.headersTimeout = timeouts.headersMs
  server.requestTimeout = timeouts.requestMs
  server.keepAliveTimeout = timeouts.keepAliveMs
  // Node looks for expired requests every connectionsCheckingInterval (30 s by default), read
  // once when the server starts listening, so a 10 s headers timeout would close a connection
  // after 10-40 s. listhen creates the server and starts it listening, so the interval cannot
  // be passed to createServer: set it, and run Node's own 'listening' handler again, which
  // restarts its check with the new interval (it clears the old timer first).
  const tracked = server as Server & { connectionsCheckingInterval: number }
  tracked.connectionsCheckingInterval = Math.min(CHECK_EVERY_MS, timeouts.headersMs)
  for (const listener of server.listeners('listening')) {
    if (listener.name === 'setupConnectionsTracking') (listener as (this: Server) => void).call(server)
  }
}

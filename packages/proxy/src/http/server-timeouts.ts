// Slow clients: the limits of the server startProxy listens with (README, Security). Node's own
// defaults let a client that sends part of a request and then nothing hold its connection for
// 60-90 s (headers), or 300 s (a request), and many such clients exhaust the proxy's sockets.
import type { ServerOptions } from 'node:http'

/** Node's `headersTimeout`, `requestTimeout` and `keepAliveTimeout` for the server startProxy listens with. */
export interface ServerTimeouts {
  /** From a request's first byte to the end of its headers. */
  headersMs: number
  /** From a request's first byte to the end of its body. */
  requestMs: number
  /**
   * How long an idle keep-alive connection stays open between requests. The headers timeout runs
   * from a request's first byte, not over this idle time, so it stays the shorter one.
   */
  keepAliveMs: number
}

/**
 * Load balancers keep an idle connection to their targets open for a while (60 s is common: AWS
 * ALB, Google's, nginx's `keepalive_timeout`) and reuse it; a server that closes it first races the
 * balancer's next request, which the balancer then answers 502. The server's idle limit must be the
 * longer one (docs/operations.md, "Keep-alive behind a load balancer").
 */
export const DEFAULT_KEEP_ALIVE_MS = 65_000

/** Node enforces the headers and request timeouts on a timer; this is how often it looks. */
const CHECK_EVERY_MS = 1_000

/**
 * The options for `http.createServer`. Node looks for expired requests every
 * `connectionsCheckingInterval` (30 s by default), so without it a 10 s headers timeout would
 * close a connection after 10-40 s.
 */
export function serverTimeoutOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.min(CHECK_EVERY_MS, timeouts.headersMs),
  }
}

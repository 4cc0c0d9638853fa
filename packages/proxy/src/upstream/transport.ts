// How the proxy's upstream calls travel (undici): through the forward proxy HTTP(S)_PROXY names
// unless NO_PROXY exempts the host, trusting the configured CAs, presenting the client
// certificate, verifying as configured (config/network.ts). One connection pool per upstream client.
import type { ConnectionOptions } from 'node:tls'
import type { OpenEventSource, SendRequest } from '@vexil/sync'
import undici, { type Dispatcher } from 'undici'
import type { UpstreamNetwork } from '../config/network.js'
import { createOpenEventSource } from './event-source.js'
import { createSendRequest } from './http-client.js'

export interface UpstreamTransport {
  send: SendRequest
  openEventSource: OpenEventSource
}

/** How long an idle connection to the upstream (or a tunnel through the proxy) is kept for the next poll. */
const IDLE_CONNECTION_MS = 15_000

export function createUpstreamTransport(network: UpstreamNetwork, rejectUnauthorized: boolean): UpstreamTransport {
  const dispatcher = createDispatcher(network, rejectUnauthorized)
  return { send: createSendRequest(dispatcher), openEventSource: createOpenEventSource(dispatcher) }
}

function createDispatcher(network: UpstreamNetwork, rejectUnauthorized: boolean): Dispatcher {
  const tls: ConnectionOptions = { ...network.identity, ...(network.ca ? { ca: network.ca } : {}), rejectUnauthorized }
  const pool = { keepAliveTimeout: IDLE_CONNECTION_MS }
  if (!network.httpProxy && !network.httpsProxy) return new undici.Agent({ ...pool, connect: tls })
  // `connect` is the upstream's TLS where NO_PROXY bypasses the proxy; `requestTls`, inside a tunnel.
  return new undici.EnvHttpProxyAgent({ ...pool, connect: tls, requestTls: tls, httpProxy: network.httpProxy, httpsProxy: network.httpsProxy, noProxy: network.noProxy })
}

// How the proxy's upstream calls travel, decided in one place by the runtime: under Node, undici,
// through the forward proxy HTTP(S)_PROXY names unless NO_PROXY exempts the host, trusting the
// configured CAs, presenting the client certificate, verifying as configured (config/network.ts),
// one connection pool per upstream client; under Bun, Bun's fetch; in a Worker, the runtime's fetch.
import type { ConnectionOptions } from 'node:tls'
import { type FetchFunction, fetchEventSource, fetchRequest, type OpenEventSource, type SendRequest } from '@vexil/sync'
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

/** How long a stream may take to answer its headers, where the runtime's fetch opens it (Bun, a Worker). */
const STREAM_CONNECT_MS = 10_000

/** Where the proxy runs, as far as its upstream calls are concerned. */
export type UpstreamRuntime = 'node' | 'bun' | 'worker'

/** Node or Bun; a Worker says so itself (its entry), as `process` exists there too. */
export function upstreamRuntime(): UpstreamRuntime {
  return typeof process.versions.bun === 'string' ? 'bun' : 'node'
}

export function createUpstreamTransport(
  network: UpstreamNetwork,
  rejectUnauthorized: boolean,
  runtime: UpstreamRuntime = upstreamRuntime(),
): UpstreamTransport {
  switch (runtime) {
    case 'worker':
      // The runtime's fetch, called as itself (a Worker refuses a detached `fetch`); no egress settings.
      return fetchTransport((url, init) => fetch(url, init))
    case 'bun':
      return bunFetchTransport(network, rejectUnauthorized)
    case 'node': {
      const dispatcher = createDispatcher(network, rejectUnauthorized)
      return { send: createSendRequest(dispatcher), openEventSource: createOpenEventSource(dispatcher) }
    }
  }
}

function createDispatcher(network: UpstreamNetwork, rejectUnauthorized: boolean): Dispatcher {
  const tls: ConnectionOptions = { ...network.identity, ...(network.ca ? { ca: network.ca } : {}), rejectUnauthorized }
  const pool = { keepAliveTimeout: IDLE_CONNECTION_MS }
  if (!network.httpProxy && !network.httpsProxy) return new undici.Agent({ ...pool, connect: tls })
  // `connect` is the upstream's TLS where NO_PROXY bypasses the proxy; `requestTls`, inside a tunnel.
  return new undici.EnvHttpProxyAgent({
    ...pool,
    connect: tls,
    requestTls: tls,
    httpProxy: network.httpProxy,
    httpsProxy: network.httpsProxy,
    noProxy: network.noProxy,
  })
}

/**
 * Bun ships its own `undici` whose dispatchers cannot send: there Bun's fetch carries the calls.
 * It reads HTTP(S)_PROXY and NO_PROXY itself and takes Node's TLS options as `tls`; it has no
 * PKCS#12, so that identity is refused.
 */
function bunFetchTransport(network: UpstreamNetwork, rejectUnauthorized: boolean): UpstreamTransport {
  if (network.identity && 'pfx' in network.identity) {
    throw new Error(
      'PKCS12_IDENTITY_FILE is not supported on Bun: give PKCS8_CLIENT_CERTIFICATE_FILE and PKCS8_CLIENT_KEY_FILE',
    )
  }
  const tls = { ...network.identity, ...(network.ca ? { ca: network.ca } : {}), rejectUnauthorized }
  return fetchTransport((url, init) => fetch(url, { ...init, tls } as RequestInit))
}

function fetchTransport(runtimeFetch: FetchFunction): UpstreamTransport {
  return { send: fetchRequest(runtimeFetch), openEventSource: fetchEventSource(runtimeFetch, STREAM_CONNECT_MS) }
}

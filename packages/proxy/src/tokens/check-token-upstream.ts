// Whether the upstream still accepts a token on its own SDK API. POST /edge/validate is not
// enough against Unleash 8.2: it answers from a token cache of its own that nothing refreshes,
// so a deleted token stays listed there until Unleash restarts, while its client and frontend
// APIs refuse it (401) once its main token cache is refreshed (every minute). One GET with the
// token, of a made-up flag on the API of its type, asks what SDKs would be told: 401 is a
// refusal; anything else (404 for the flag, a route the upstream lacks, an error) decides nothing.
import type { TraceCarrier } from '@vexil/server-kit/tracing'
import type { Upstream } from '../upstream/upstream.js'
import { featuresUrl } from '../upstream/upstream.js'
import type { KnownToken } from './api-token.js'

/** False when the upstream refuses the token on its API; true otherwise, errors included. `cause`: the span of the request that asked (tracing). */
export type CheckToken = (token: KnownToken, cause?: TraceCarrier) => Promise<boolean>

const PROBE_FLAG = 'vexil-token-check'

export function checkTokenUpstream(upstream: Pick<Upstream, 'fetchBootstrap'>, serviceUrl: string): CheckToken {
  const clientFeatures = featuresUrl({ serviceUrl, projectName: undefined, namePrefix: undefined, tags: [] })
  const base = clientFeatures.slice(0, -'/client/features'.length)
  const urls = { client: `${clientFeatures}/${PROBE_FLAG}`, frontend: `${base}/frontend/features/${PROBE_FLAG}` }
  return async (token, cause) => {
    if (token.type === 'admin') return true
    try {
      return (await upstream.fetchBootstrap(urls[token.type], token.secret, cause && [cause])).status !== 401
    } catch {
      return true
    }
  }
}

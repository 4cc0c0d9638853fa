// Edge's operational and daisy-chaining routes (docs/edge-compatibility.md), open to anyone as in
// Edge, so its Kubernetes probes, scrapers and downstream proxies work unchanged:
//   GET /internal-backstage/health   {"status":"OK"}
//   GET /internal-backstage/ready    {"status":"READY"}, or 503 NOTREADY while a scope has no flags
//   GET /internal-backstage/metrics  the Prometheus scrape
//   GET /internal-backstage/tokens   the known token scopes, never a secret
//   POST /edge/validate              which of the given tokens this proxy accepts (validated
//                                    upstream as needed), so a proxy or an Edge can sit in front
// DISABLE_METRICS_ENDPOINT and DISABLE_TOKENS_ENDPOINT leave their route out (404), as in Edge.
import type { H3Event } from 'h3'
import type { ClientAddress } from '../http/client-ip.js'
import { ProxyError } from '../http/errors.js'
import { JSON_CONTENT_TYPE, sendText } from '../http/respond.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import type { TokenScopes } from '../scope/token-scopes.js'
import type { MetricsSource } from '../scope/upstream-sync.js'
import { type KnownToken, readTokenSecret } from '../tokens/api-token.js'
import { callerKey } from '../tokens/caller-key.js'
import type { TokenRegistry } from '../tokens/token-registry.js'
import { readJson } from './client-metrics.js'

interface EdgeOperationsDependencies {
  /** Undefined when the Prometheus route is turned off. */
  registry: MetricsSource | undefined
  /** /internal-backstage/tokens is served. */
  tokensEndpoint: boolean
  tokens: TokenRegistry
  scopes: TokenScopes
  /** False while a scope the proxy serves (the static one included) has no flags yet. */
  ready: () => boolean
  /** Whose share of the validation queue the tokens asked about take. */
  clientAddress: ClientAddress
}

const MAX_VALIDATE = 1_000

/** `{ tokens: string[] }`, at most MAX_VALIDATE of at most 1,024 characters; undefined otherwise. */
function readTokenList(body: unknown): string[] | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined
  const { tokens } = body as { tokens?: unknown }
  if (!Array.isArray(tokens) || tokens.length > MAX_VALIDATE) return undefined
  return tokens.every((token) => typeof token === 'string' && token.length <= 1_024) ? (tokens as string[]) : undefined
}

/** What may be shown of a secret: the scope part, never the secret part. */
function anonymize(secret: string): string {
  const dot = secret.indexOf('.')
  return `${dot === -1 ? '' : secret.slice(0, dot + 1)}*****`
}

const json = (value: unknown) => JSON.stringify(value)

/** `value` as JSON with `status` (for HEAD, the headers alone). */
const sendJson = (event: H3Event, status: number, value: unknown) =>
  sendText(event.node.res, status, JSON_CONTENT_TYPE, json(value), event.method === 'HEAD')

const OPEN = { access: 'open', waitsForFlags: false, cors: 'none', example: { status: 200 } } as const

export function edgeOperationsRoutes(deps: EdgeOperationsDependencies): RouteDeclaration[] {
  return [
    {
      ...OPEN,
      methods: ['GET', 'HEAD'],
      path: '/internal-backstage/health',
      handle: (event) => sendJson(event, 200, { status: 'OK' }),
    },
    {
      ...OPEN,
      methods: ['GET', 'HEAD'],
      path: '/internal-backstage/ready',
      example: { status: 200, statusBeforeReady: 503 },
      handle: (event) =>
        deps.ready()
          ? sendJson(event, 200, { status: 'READY' })
          : sendJson(event, 503, { error: 'Edge is not ready to serve requests', status: 'NOTREADY' }),
    },
    ...(deps.registry ? [metricsRoute(deps.registry)] : []),
    ...(deps.tokensEndpoint ? [tokensRoute(deps)] : []),
    {
      ...OPEN,
      methods: ['POST'],
      path: '/edge/validate',
      example: { status: 200, body: '{"tokens":[]}' },
      handle: async (event) => {
        const list = readTokenList(await readJson(event))
        if (!list)
          throw new ProxyError('API_BAD_REQUEST', `The body must be { "tokens": [<at most ${MAX_VALIDATE} strings>] }`)
        // Only what can be a token is asked about upstream.
        const secrets = [...new Set(list)].filter((secret) => readTokenSecret(secret) === secret)
        // As Edge, anyone may ask; the tokens a caller sends wait in its own share of the queue.
        const caller = callerKey(deps.clientAddress(event))
        const results = await Promise.all(
          secrets.map((secret) => deps.tokens.known(secret) ?? deps.tokens.resolve(secret, caller)),
        )
        // Admin tokens are known (to be refused as the wrong type) but never listed.
        const valid = results.filter(
          (result): result is KnownToken => typeof result === 'object' && result.type !== 'admin',
        )
        sendText(
          event.node.res,
          200,
          JSON_CONTENT_TYPE,
          json({
            tokens: valid.map((token) => ({
              token: token.secret,
              type: token.type,
              projects: token.projects,
              environment: token.environment,
            })),
          }),
        )
      },
    },
  ]
}

// --- Internal helpers ---

function metricsRoute(registry: MetricsSource): RouteDeclaration {
  return {
    ...OPEN,
    methods: ['GET', 'HEAD'],
    path: '/internal-backstage/metrics',
    handle: async (event) =>
      sendText(event.node.res, 200, registry.contentType, await registry.metrics(), event.method === 'HEAD'),
  }
}

function tokensRoute(deps: EdgeOperationsDependencies): RouteDeclaration {
  return {
    ...OPEN,
    methods: ['GET', 'HEAD'],
    path: '/internal-backstage/tokens',
    handle: (event) =>
      sendJson(event, 200, {
        tokenRefreshes: deps.scopes.syncs.map((sync) => ({
          environment: sync.scope.environment,
          projects: sync.scope.projects,
          lastFetch: sync.lastFetch > 0 ? new Date(sync.lastFetch).toISOString() : null,
          lastUpdate: sync.flags.current ? new Date(sync.flags.current.loadedAt).toISOString() : null,
        })),
        tokenValidationStatus: deps.tokens
          .tokens()
          .filter((token) => token.type !== 'admin')
          .map((token) => ({
            token: anonymize(token.secret),
            type: token.type,
            environment: token.environment,
            projects: token.projects,
            status: 'Validated',
          })),
        invalidTokenCount: deps.tokens.invalidCount,
      }),
  }
}

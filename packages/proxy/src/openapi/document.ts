// The OpenAPI document served at {base}/docs/openapi.json (spec 4.5). It depends only on config,
// so the app builds it once at startup; nothing here runs per request.
import { clientPaths } from './paths-client.js'
import { edgePaths } from './paths-edge.js'
import { OFREP_SECURITY_SCHEMES, ofrepPaths } from './paths-ofrep.js'
import { operationalPaths } from './paths-operational.js'
import { serverSidePaths } from './paths-server-side.js'
import { COMPONENT_HEADERS, COMPONENT_PARAMETERS, COMPONENT_RESPONSES } from './responses.js'
import { COMPONENT_SCHEMAS } from './schemas.js'

interface OpenApiDocumentOptions {
  /** The sanitised `proxyBasePath` (`''` or `/a/b`); the paths below stay relative to it. */
  basePath: string
  /** The header that carries client keys and server-side tokens (`clientKeysHeaderName`). */
  clientKeysHeaderName: string
  /** The proxy's version, shown as `info.version`. */
  version: string
  /** Whether `/proxy/all` answers; when off its operations say they answer 501. */
  enableAllEndpoint: boolean
  /**
   * The app's route table: the document lists exactly these routes (GET and POST; HEAD is
   * implied), and a route without an operation here is an error, so the two cannot disagree.
   * Default: the old proxy's routes.
   */
  routes?: ReadonlyArray<{ method: string; path: string; prefix: boolean | 'below' }>
}

/** A route without its own page: the docs do not document themselves (nor did the old proxy's). */
const UNDOCUMENTED = /^\/docs(\/|$)/

/** The document's path for a route: a `/features` route's flag name is a path parameter. */
const documentPath = (route: { path: string; prefix: boolean | 'below' }) =>
  route.prefix === 'below' ? `${route.path}/{featureName}` : route.path

/** The operations of `routes` from `catalog`; throws naming a route that has none. */
function pathsOf(
  catalog: Record<string, Record<string, unknown>>,
  routes: NonNullable<OpenApiDocumentOptions['routes']>,
): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    if (route.method === 'HEAD' || UNDOCUMENTED.test(route.path)) continue
    const path = documentPath(route)
    const method = route.method.toLowerCase()
    const operation = catalog[path]?.[method]
    if (!operation) throw new Error(`Route ${route.method} ${path} has no OpenAPI operation (src/openapi/paths-*.ts)`)
    ;(paths[path] ??= {})[method] = operation
  }
  return paths
}

const DESCRIPTION = [
  'The Vexil evaluation proxy, a drop-in replacement for the Unleash proxy: it evaluates flags for the context each caller sends, and never returns flag configuration to frontend clients.',
  'Keys go bare (no scheme prefix) in the key header. Until the proxy has its first configuration every `/proxy` route except metrics and registration answers 503. Every GET also answers HEAD; every response carries the configured CORS headers.',
].join('\n\n')

const TAGS = [
  { name: 'Proxy client', description: 'Feature toggle endpoints intended to be consumed by proxy clients.' },
  {
    name: 'Server-side client',
    description:
      'Feature toggle endpoints related to and intended to be consumed by server-side clients and other proxies.',
  },
  { name: 'Operational', description: 'Endpoints related to operating the proxy.' },
]

/** Tags of the Unleash API routes, listed when the document has such routes. */
const EDGE_TAGS = [
  {
    name: 'Frontend API',
    description:
      "Unleash's frontend API for frontend tokens, answered as Unleash 8.2 answers it, with Edge's additions.",
  },
  {
    name: 'Server-side SDK API',
    description: "Unleash's client API for server SDKs with client tokens, per token scope.",
  },
  { name: 'Edge operations', description: "Unleash Edge's operational and daisy-chaining routes." },
  {
    name: 'OpenFeature (OFREP)',
    description: "OpenFeature's Remote Evaluation Protocol 0.3.0, for client keys and frontend tokens.",
  },
]

export function createOpenApiDocument(options: OpenApiDocumentOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = options.routes
    ? pathsOf(
        {
          ...clientPaths(options),
          ...serverSidePaths(),
          ...operationalPaths(),
          ...edgePaths(),
          ...ofrepPaths(),
        } as Record<string, Record<string, unknown>>,
        options.routes,
      )
    : ({ ...clientPaths(options), ...serverSidePaths(), ...operationalPaths() } as Record<
        string,
        Record<string, unknown>
      >)
  const used = new Set(
    Object.values(paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => (operation as { tags?: string[] }).tags ?? []),
    ),
  )
  const edgeTags = EDGE_TAGS.filter((tag) => used.has(tag.name))
  const document = {
    openapi: '3.0.3',
    // The paths are relative, so the base path goes in the server; `[]` means `/` (#133, #136).
    servers: options.basePath ? [{ url: options.basePath }] : [],
    info: {
      title: 'Vexil Proxy API',
      version: options.version,
      description: DESCRIPTION,
      license: { name: 'Apache-2.0' },
    },
    security: [{ apiKey: [] }],
    tags: [...TAGS, ...edgeTags],
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: options.clientKeysHeaderName,
          description: 'A client key, or a server-side token where the operation says so.',
        },
        ...(edgeTags.length > 0
          ? {
              apiToken: {
                type: 'apiKey',
                in: 'header',
                name: 'Authorization',
                description:
                  'An Unleash API token of the upstream (`project:environment.secret`; `Bearer ` allowed): a frontend token on the frontend API, a client token on the client API.',
              },
            }
          : {}),
        ...(used.has('OpenFeature (OFREP)') ? OFREP_SECURITY_SCHEMES : {}),
      },
      schemas: COMPONENT_SCHEMAS,
      responses: COMPONENT_RESPONSES,
      parameters: COMPONENT_PARAMETERS,
      headers: COMPONENT_HEADERS,
    },
    paths,
  }
  // The components are shared constants: each app gets its own copy to keep (or change).
  return structuredClone(document)
}

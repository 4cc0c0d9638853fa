// The OpenAPI document served at {base}/docs/openapi.json (spec 4.5). It depends only on config,
// so the app builds it once at startup; nothing here runs per request.
import { clientPaths } from './paths-client.js'
import { operationalPaths } from './paths-operational.js'
import { serverSidePaths } from './paths-server-side.js'
import { COMPONENT_HEADERS, COMPONENT_PARAMETERS, COMPONENT_RESPONSES } from './responses.js'
import { COMPONENT_SCHEMAS } from './schemas.js'

export interface OpenApiDocumentOptions {
  /** The sanitised `proxyBasePath` (`''` or `/a/b`); the paths below stay relative to it. */
  basePath: string
  /** The header that carries client keys and server-side tokens (`clientKeysHeaderName`). */
  clientKeysHeaderName: string
  /** The proxy's version, shown as `info.version`. */
  version: string
  /** Whether `/proxy/all` answers; when off its operations say they answer 501. */
  enableAllEndpoint: boolean
}

const DESCRIPTION = [
  'The Vexil evaluation proxy, a drop-in replacement for the Unleash proxy: it evaluates flags for the context each caller sends, and never returns flag configuration to frontend clients.',
  'Keys go bare (no scheme prefix) in the key header. Until the proxy has its first configuration every `/proxy` route except metrics and registration answers 503. Every GET also answers HEAD; every response carries the configured CORS headers.',
].join('\n\n')

const TAGS = [
  { name: 'Proxy client', description: 'Feature toggle endpoints intended to be consumed by proxy clients.' },
  { name: 'Server-side client', description: 'Feature toggle endpoints related to and intended to be consumed by server-side clients and other proxies.' },
  { name: 'Operational', description: 'Endpoints related to operating the proxy.' },
]

export function createOpenApiDocument(options: OpenApiDocumentOptions): Record<string, unknown> {
  const document = {
    openapi: '3.0.3',
    // The paths are relative, so the base path goes in the server; `[]` means `/` (#133, #136).
    servers: options.basePath ? [{ url: options.basePath }] : [],
    info: { title: 'Vexil Proxy API', version: options.version, description: DESCRIPTION, license: { name: 'Apache-2.0' } },
    security: [{ apiKey: [] }],
    tags: TAGS,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: options.clientKeysHeaderName, description: 'A client key, or a server-side token where the operation says so.' },
      },
      schemas: COMPONENT_SCHEMAS,
      responses: COMPONENT_RESPONSES,
      parameters: COMPONENT_PARAMETERS,
      headers: COMPONENT_HEADERS,
    },
    paths: { ...clientPaths(options), ...serverSidePaths(), ...operationalPaths() },
  }
  // The components are shared constants: each app gets its own copy to keep (or change).
  return structuredClone(document)
}

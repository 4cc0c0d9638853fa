// A real listening h3 v1 server that mounts only the docs handler, then a marker handler that
// stands in for the lead's routes: a request the docs handler leaves alone answers `fallthrough`.
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createApp, toNodeListener } from 'h3'
import { createDocsHandler, createOpenApiDocument } from '../../src/openapi/index.js'
import { openSwaggerUiAssets } from '../../src/openapi/swagger-ui-assets.js'

export const FALLTHROUGH = 'fallthrough'

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  text: string
}

export interface DocsServer {
  /** Origin, e.g. `http://127.0.0.1:4321` (no base path). */
  origin: string
  document: Record<string, unknown>
  /** Sends `path` byte for byte (no URL normalisation, unlike fetch), so `..` reaches the server. */
  raw(path: string, options?: { method?: string; headers?: Record<string, string> }): Promise<RawResponse>
  close(): Promise<void>
}

export async function startDocsServer(options: { basePath: string; enableAllEndpoint?: boolean }): Promise<DocsServer> {
  const document = createOpenApiDocument({
    basePath: options.basePath,
    clientKeysHeaderName: 'authorization',
    version: '0.0.0-test',
    enableAllEndpoint: options.enableAllEndpoint ?? false,
  })
  const app = createApp()
  app.use(createDocsHandler({ basePath: options.basePath, document, assets: openSwaggerUiAssets() }))
  app.use(() => FALLTHROUGH)
  const server = createServer(toNodeListener(app))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  const raw: DocsServer['raw'] = (path, { method = 'GET', headers = {} } = {}) =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const body = Buffer.concat(chunks)
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') })
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end()
    })

  return {
    origin: `http://127.0.0.1:${port}`,
    document,
    raw,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

// The docs routes (spec 4.5; docs/old-proxy-compatibility.md 1.1), one h3 v1 handler the app mounts
// before every other route when `enableOAS` is on:
//   GET|HEAD {base}/docs/openapi.json      the document
//   GET|HEAD {base}/docs/openapi           301 to {base}/docs/openapi/ (old behaviour)
//   GET|HEAD {base}/docs/openapi/          the Swagger UI page (also …/index.html)
//   GET|HEAD {base}/docs/openapi/<file>    swagger-ui-dist's files
// Anything else under {base}/docs is 404. Other paths and other methods return undefined, so the
// app's routing continues (an OPTIONS preflight still reaches CORS, as in the old proxy).
import { sendStaticAsset } from '@vexil/server-kit'
import { type H3Event, createError, defineEventHandler, sendRedirect, setResponseHeaders } from 'h3'
import type { SwaggerUiAssets } from './swagger-ui-assets.js'
import { INITIALIZER_JS, INITIALIZER_NAME, PAGE_HEADERS, renderUiPage } from './ui-page.js'

interface DocsHandlerOptions {
  /** The sanitised `proxyBasePath` (`''` or `/a/b`). */
  basePath: string
  /** From `createOpenApiDocument`, built once at startup. */
  document: Record<string, unknown>
  /**
   * The Swagger UI page's files (`openSwaggerUiAssets()`); without them, as in a Cloudflare Worker
   * (no swagger-ui-dist there), the document is served and the page's paths are 404.
   */
  assets: SwaggerUiAssets | undefined
}

const JSON_TYPE = 'application/json; charset=utf-8'
const IMMUTABLE = 'public, max-age=31536000, immutable'

export function createDocsHandler(
  options: DocsHandlerOptions,
): (event: H3Event) => Promise<unknown> | unknown | undefined {
  const docs = `${options.basePath}/docs`
  const ui = `${docs}/openapi/`
  // Everything that does not depend on the request is built here, once.
  const json = JSON.stringify(options.document)
  const { assets } = options
  const page = assets ? renderUiPage(assets.version) : undefined

  return defineEventHandler(async (event) => {
    if (event.method !== 'GET' && event.method !== 'HEAD') return undefined
    // originalUrl: the full path even if the app mounts this handler under a prefix.
    const url = event.node.req.originalUrl || event.path
    const queryAt = url.indexOf('?')
    const path = queryAt === -1 ? url : url.slice(0, queryAt)
    const query = queryAt === -1 ? '' : url.slice(queryAt)
    if (path !== docs && !path.startsWith(`${docs}/`)) return undefined

    if (path === `${docs}/openapi.json`) {
      setResponseHeaders(event, { 'content-type': JSON_TYPE })
      return json
    }
    if (!assets || !page) throw createError({ statusCode: 404, statusMessage: 'Not Found' })
    if (path === `${docs}/openapi`) return sendRedirect(event, `${ui}${query}`, 301)
    if (path === ui || path === `${ui}index.html`) {
      setResponseHeaders(event, PAGE_HEADERS)
      return page
    }
    if (path === `${ui}${INITIALIZER_NAME}`) {
      setResponseHeaders(event, { ...PAGE_HEADERS, 'content-type': 'text/javascript; charset=utf-8' })
      return INITIALIZER_JS
    }
    if (path.startsWith(ui)) {
      const asset = await assets.get(decodeName(path.slice(ui.length)))
      if (asset)
        return sendStaticAsset(
          event,
          asset,
          new URLSearchParams(query).get('v') === assets.version ? IMMUTABLE : 'no-cache',
        )
    }
    throw createError({ statusCode: 404, statusMessage: 'Not Found' })
  })
}

/** A file name from the URL; anything that does not decode cleanly names no file. */
function decodeName(encoded: string): string {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return ''
  }
}

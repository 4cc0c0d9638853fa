// The docs (spec 4.5), with ENABLE_OAS: the OpenAPI document and the Swagger UI under
// {base}/docs, open to anyone as in the old proxy. The docs handler picks the file from the
// request's path; it only serves, it decides no access.
import type { H3Event } from 'h3'
import { ProxyError } from '../http/errors.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'

/** `docs` is read per request: the handler is made from the route table, after the routes. */
export function docsRoutes(docs: () => (event: H3Event) => unknown): RouteDeclaration[] {
  return [
    {
      methods: ['GET', 'HEAD'],
      path: '/docs',
      prefix: true,
      access: 'open',
      waitsForFlags: false,
      example: { status: 200, path: '/docs/openapi.json' },
      handle: async (event) => {
        const answer = await docs()(event)
        // Paths under /docs that name no document or file.
        if (answer === undefined && !event.node.res.writableEnded)
          throw new ProxyError('NOT_FOUND', `Cannot ${event.method} ${event.context.url!.rawPath}`)
        return answer
      },
    },
  ]
}

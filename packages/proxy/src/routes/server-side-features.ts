// GET /proxy/client/features (docs/old-proxy-compatibility.md 1.1, 6.2): the flag definitions, with
// segments, for server-side SDKs holding one of EXP_SERVER_SIDE_SDK_CONFIG_TOKENS. Client keys
// get 401, as in the old proxy: this route shows configuration the evaluation routes never do.
import { matchesIfNoneMatch } from '../http/etag.js'
import { CACHE_CONTROL, JSON_CONTENT_TYPE, sendBody, sendNotModified } from '../http/respond.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'

export function serverSideFeaturesRoutes(): RouteDeclaration[] {
  return [
    {
      methods: ['GET', 'HEAD'],
      path: '/proxy/client/features',
      access: 'server-token',
      waitsForFlags: true,
      example: { status: 200 },
      handle: (event) => {
        const { req, res } = event.node
        // The route waits for flags: without a set the router answered 503.
        const payload = event.context.flags!.serverSide
        res.setHeader('content-type', JSON_CONTENT_TYPE)
        res.setHeader('cache-control', CACHE_CONTROL)
        res.setHeader('etag', payload.etag)
        if (matchesIfNoneMatch(req.headers['if-none-match'], payload.etag)) return sendNotModified(res)
        return sendBody(res, 200, { text: payload.body }, req.headers['accept-encoding'], event.method === 'HEAD')
      },
    },
  ]
}

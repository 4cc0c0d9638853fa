// What the proxy decides about a request once, kept where h3 keeps request state
// (`event.context`): its URL as parsed on arrival, the flag set the whole request answers from,
// the CORS headers of the route's declaration, and for routes with token access the caller.
// Handlers read them; nothing re-derives them.
import type { CorsHeaders } from '../http/cors.js'
import type { FlagSet } from '../scope/flag-set.js'
import type { ScopeView } from '../scope/token-scopes.js'
import type { KnownToken } from '../tokens/api-token.js'

/** A caller of a route with token access: its token, and the scope view it is answered from. */
/** The request's URL, parsed once as it arrived (routing/route-path.ts). */
export interface RequestUrl {
  /** The path as sent, without the query. */
  rawPath: string
  /** The path routing and access decisions use: lower case, under PROXY_BASE_PATH; undefined outside it. */
  routed: string | undefined
  /** The raw query string (without `?`). */
  search: string
}

export interface TokenCaller {
  token: KnownToken
  view: ScopeView
}

declare module 'h3' {
  interface H3EventContext {
    /** The current flag set, read once as the request was routed: defined on every route that waits for flags. */
    flags?: FlagSet
    /** The route's CORS headers for this request's origin. */
    cors?: CorsHeaders
    /** An evaluation answer's body bytes as sent (answers/send-answer.ts), for the response-size metric. */
    responseBytes?: number
    /** For routes with token access: who is calling. */
    caller?: TokenCaller
    /** Set before routing, for every request. */
    url?: RequestUrl
  }
}

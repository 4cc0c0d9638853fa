// Shared responses, headers and parameters, with the content types Vexil really sends. The old
// document claimed JSON for 501 and text/plain for 503; Express sent both as text/html
// (docs/old-proxy-compatibility.md 1.3). 413 and 500 are Vexil's JSON improvements (docs/old-proxy-compatibility.md section 0).

type Json = Record<string, unknown>

export const responseRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` })
export const parameterRef = (name: string): Json => ({ $ref: `#/components/parameters/${name}` })
const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` })

const text = (mediaType: string, example: string): Json => ({ [mediaType]: { schema: { type: 'string' }, example } })
const errorJson = (example: string): Json => ({
  'application/json': { schema: { $ref: '#/components/schemas/errorSchema' }, example: { error: example } },
})

/** The 200 of a cacheable GET: a weak ETag over the body and a 2-second public cache. */
export function cachedJson(description: string, schema: string): Json {
  return {
    description,
    headers: { ETag: headerRef('ETag'), 'Cache-Control': headerRef('CacheControl') },
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
  }
}

export function plainOk(mediaType: 'text/plain' | 'text/html', example: string): Json {
  return { description: 'The request was successful.', content: text(mediaType, example) }
}

export const COMPONENT_HEADERS: Json = {
  ETag: {
    description: 'A weak ETag over the response body; send it back in `If-None-Match`.',
    schema: { type: 'string' },
  },
  CacheControl: {
    description: 'Always `public, max-age=2`.',
    schema: { type: 'string', example: 'public, max-age=2' },
  },
}

export const COMPONENT_RESPONSES: Json = {
  NotModified: {
    description: '`If-None-Match` matched the current ETag: the answer has not changed. Empty body.',
    headers: { ETag: headerRef('ETag'), 'Cache-Control': headerRef('CacheControl') },
  },
  BadRequest: {
    description: 'The query or body is malformed or does not match its schema.',
    content: errorJson('Request validation failed'),
  },
  Unauthorized: {
    description: 'The key header is missing or holds no accepted key.',
    content: text('text/plain', 'Unauthorized'),
  },
  PayloadTooLarge: {
    description: "The request body is over the proxy's size limit.",
    content: errorJson('The request body is too large.'),
  },
  UnsupportedMediaType: {
    description:
      'The request has a body whose `Content-Type` is not `application/json` (a body without one is read as JSON). Empty body.',
  },
  ServerError: {
    description:
      'A custom strategy or context enricher threw, or something else failed unexpectedly. The error is logged and the proxy keeps serving.',
    content: errorJson('Whoops! We dropped the ball on this one (an unexpected error occurred): strategy exploded'),
  },
  NotImplemented: {
    description:
      '`/proxy/all` is disabled: set the `enableAllEndpoint` option or `ENABLE_ALL_ENDPOINT=true`. Answered only after the key is accepted.',
    content: text(
      'text/html',
      'The /proxy/all endpoint is disabled. Please check your server configuration. To enable it, set the `enableAllEndpoint` configuration option or `ENABLE_ALL_ENDPOINT` environment variable to `true`.',
    ),
  },
  NotReady: {
    description: 'The proxy has no configuration yet (no upstream answer, bootstrap or stored backup).',
    content: text(
      'text/html',
      'The Unleash Proxy has not connected to the Unleash API and is not ready to accept requests yet.',
    ),
  },
}

const query = (name: string, description: string): Json => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string' },
})

export const COMPONENT_PARAMETERS: Json = {
  appName: query('appName', "Your application's name"),
  environment: query('environment', 'The environment; ignored when the proxy pins one'),
  userId: query('userId', "The current user's ID"),
  sessionId: query('sessionId', "The current session's ID; a random one per request when absent"),
  remoteAddress: query('remoteAddress', "The client's IP address; defaults to the caller's"),
  currentTime: query('currentTime', 'ISO 8601 time at which to evaluate DATE_AFTER/DATE_BEFORE constraints'),
  properties: {
    name: 'properties',
    in: 'query',
    description:
      'Custom context fields, as `properties[region]=Africa`. Other unknown query parameters become properties too.',
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    example: { region: 'Africa', betaTester: 'true' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'An ETag from an earlier answer: 304 if nothing changed.',
    schema: { type: 'string' },
  },
}

/** The query parameters GET /proxy and GET /proxy/all read into the context. */
export const CONTEXT_QUERY = [
  'appName',
  'environment',
  'userId',
  'sessionId',
  'remoteAddress',
  'currentTime',
  'properties',
].map(parameterRef)

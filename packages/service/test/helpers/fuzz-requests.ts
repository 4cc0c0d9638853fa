// Requests generated from the route table: each route is called with its own method or another,
// path parameters naming the playground or hostile, another spelling of the path, an odd query,
// a body of the route's shape mutated, odd headers and any credential; three in five are aimed
// past the access check and the lookups, so that hostile bodies reach the handlers' writes. A
// spec is generated from the seed alone; `materialize` turns it into bytes against the
// playground as it is at that moment.
import fc from 'fast-check'
import type { RouteSpec } from '../../src/routes/api-router.js'
import { type BodySpec, bodyBytes, bodyFor } from './fuzz-bodies.js'
import { shapesFor } from './fuzz-shapes.js'
import type { FuzzRequest } from './fuzz-http.js'
import type { Playground } from './fuzz-playground.js'
import { admits, type FuzzCredential } from './fuzz-world.js'
import { contentType, encode, extraHeaders, host, OTHER_METHODS, queryString, wireParam } from './fuzz-values.js'

type ParamSpec = { playground: keyof Playground } | { wire: string }

export interface RequestSpec {
  route: RouteSpec | undefined
  method: string
  /** Route requests: a value per path parameter, then a spelling of the path. Others: the raw path. */
  params: Record<string, ParamSpec>
  spelling: number
  rawPath: string
  query: string
  credential: number
  authSpelling: number
  host: string | undefined
  contentType: string | undefined
  headers: Record<string, string>
  body: BodySpec
  chunked: boolean
}

/** Which playground field a parameter names, by the path up to it (first match wins). */
const PARAM_FIELDS: [RegExp, keyof Playground][] = [
  [/\/archive\/(revive\/)?:featureName$/, 'archived'],
  [/:featureName$/, 'flag'],
  [/:projectId$/, 'project'],
  [/:parent$/, 'parent'],
  [/:environment$/, 'environment'],
  [/:strategyId$/, 'strategyId'],
  [/\/segments\/:id$/, 'segmentId'],
  [/\/user-admin\/:id$/, 'userId'],
  [/\/user\/tokens\/:id$/, 'patId'],
  [/\/signal-endpoints\/:id$/, 'endpointId'],
  [/\/actions\/:id$/, 'actionSetId'],
  [/:tokenId$/, 'signalTokenId'],
  [/:token$/, 'apiTokenId'],
  [/\/environments\/(update\/)?:name$/, 'environment'],
  [/\/tag-types\/:name$/, 'tagType'],
  [/\/signal-endpoint\/:name$/, 'endpointName'],
  [/:type$/, 'tagType'],
  [/:value$/, 'tagValue'],
]

/** The playground field for parameter `name` of `route`; a parameter no rule knows names the project. */
export function playgroundField(route: RouteSpec, name: string): keyof Playground {
  const upTo = route.path.slice(0, route.path.indexOf(`:${name}`) + name.length + 1)
  return PARAM_FIELDS.find(([pattern]) => pattern.test(upTo))?.[1] ?? 'project'
}

/** Other spellings of a path (as the authorization matrix): each must reach the same route or none. */
const SPELLINGS: ((path: string) => string)[] = [
  (p) => p,
  (p) => `${p}/`,
  (p) => p.toUpperCase(),
  (p) => p.replace(/^(\/[^/]+)\//, '$1//'),
  (p) => p.replace(/^(\/[^/]+)\//, '$1/./'),
  (p) => p.replace(/^(\/[^/]+)\//, '$1/x/../'),
  (p) => p.replace(/^(\/[^/]+)\//, '$1%2F'),
  (p) => p.replace(/^\/(\w)/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
  (p) => `${p};x`,
  (p) => p.replace(/^(\/[^/]+)\//, '$1\\'),
]

const OFF_TABLE_PATHS = [
  '/',
  '*',
  '/api',
  '/api/',
  '/api/admin',
  '/api/admin/',
  '/api/client',
  '/api/admin/nope',
  '/API/ADMIN/PROJECTS',
  '/health/',
  '/HEALTH',
  '/index.html',
  '/assets/x.js',
  '/favicon.ico',
  '/%',
  '/%00',
  '/api/%zz',
  '/api/admin/%2e%2e/client/features',
  '//api/admin/projects',
  '/api/admin/projects/../../health',
  '/a?b#c',
  '/api/admin/projects?x=1#frag',
]

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH'])

/**
 * The arbitrary of specs for `route` (undefined: a path off the table): aimed at its handler (a
 * credential it admits, its method, the playground in every parameter, a JSON body of its shape
 * mutated) or anything at all, each part drawn on its own.
 */
export function specFor(
  route: RouteSpec | undefined,
  credentials: FuzzCredential[],
  port: number,
): fc.Arbitrary<RequestSpec> {
  const anyCredential = fc.nat(credentials.length - 1)
  const admitted = credentials.flatMap((c, i) => (route && admits(route.access, c) ? [i] : []))
  const names = route ? [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string) : []
  const playground = (name: string): fc.Arbitrary<ParamSpec> =>
    fc.constant({ playground: playgroundField(route as RouteSpec, name) })
  const anyParam = (name: string): fc.Arbitrary<ParamSpec> =>
    fc.oneof(
      { weight: 3, arbitrary: playground(name) },
      { weight: 3, arbitrary: wireParam.map((wire) => ({ wire })) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom<keyof Playground>('project', 'flag', 'segmentId', 'userId', 'endpointName', 'apiTokenId')
          .map((field) => ({ playground: field })),
      },
    )
  const common = {
    route: fc.constant(route),
    rawPath: fc.oneof(
      fc.constantFrom(...OFF_TABLE_PATHS),
      fc.array(wireParam, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
    ),
    query: queryString,
    authSpelling: fc.nat(4),
    host: host(port),
    headers: extraHeaders,
    body: bodyFor(route ? shapesFor(route) : shapesFor({ method: 'POST', path: '/', access: 'public' })),
    chunked: fc.nat(7).map((n) => n === 0),
  }
  const wide = fc.record({
    ...common,
    method: route
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constant<string>(route.method) },
          { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
        )
      : fc.constantFrom(...OTHER_METHODS),
    params: fc.record(Object.fromEntries(names.map((name) => [name, anyParam(name)]))),
    spelling: fc.oneof(
      { weight: 4, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.nat(SPELLINGS.length - 1) },
    ),
    credential: anyCredential,
    contentType,
  })
  if (!route) return wide
  const aimed = fc.record({
    ...common,
    method: fc.constant<string>(route.method),
    params: fc.record(Object.fromEntries(names.map((name) => [name, playground(name)]))),
    spelling: fc.constant(0),
    credential: admitted.length > 0 ? fc.constantFrom(...admitted) : anyCredential,
    contentType: fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8'),
  })
  return fc.oneof({ weight: 3, arbitrary: aimed }, { weight: 2, arbitrary: wide })
}

/** The well-formed call of a route: its method, the playground, its shape's body, a credential it admits. */
export function baselineSpec(route: RouteSpec, credentials: FuzzCredential[], port: number): RequestSpec {
  const preferred = ['admin token', 'client token', 'viewer personal token', 'signal token', 'no credential']
  const credential =
    preferred
      .map((label) => credentials.findIndex((c) => c.label === label))
      .find((i) => i >= 0 && admits(route.access, credentials[i] as FuzzCredential)) ?? 0
  const params = Object.fromEntries(
    [...route.path.matchAll(/:(\w+)/g)].map((m) => [
      m[1] as string,
      { playground: playgroundField(route, m[1] as string) },
    ]),
  )
  const body: BodySpec = WRITE_METHODS.has(route.method)
    ? { kind: 'shaped', value: shapesFor(route)[0], as: 'json', cut: 0 }
    : { kind: 'none' }
  return {
    route,
    method: route.method,
    params,
    spelling: 0,
    rawPath: '',
    query: '',
    credential,
    authSpelling: 1,
    host: `127.0.0.1:${port}`,
    contentType: 'application/json',
    headers: {},
    body,
    chunked: false,
  }
}

/** The n-th request on the wire, playground values resolved now. */
export function materialize(spec: RequestSpec, credentials: FuzzCredential[], pg: Playground, n: number): FuzzRequest {
  const route = spec.route
  const credential = credentials[spec.credential] as FuzzCredential
  const path = route
    ? (SPELLINGS[spec.spelling] as (p: string) => string)(
        route.path.replace(/:(\w+)/g, (_, name: string) => paramText(spec.params[name] as ParamSpec, pg)),
      )
    : spec.rawPath
  const headers: Record<string, string> = { ...spec.headers }
  const authorization = authHeader(credential, spec.authSpelling)
  if (authorization !== undefined) headers.authorization = authorization
  if (spec.host !== undefined) headers.host = spec.host
  const body = bodyBytes(spec.body, pg, n)
  if (spec.contentType !== undefined && body !== undefined) headers['content-type'] = spec.contentType
  const request: FuzzRequest = {
    target: route ? `${route.method} ${route.path}` : 'off the table',
    credential: credential.label,
    method: spec.method,
    path: spec.query ? `${path}?${spec.query}` : path,
    headers,
    body,
    chunked: spec.chunked && body !== undefined,
  }
  // Said outright: Node frames a GET or DELETE body as chunked only when told to.
  if (request.chunked) headers['transfer-encoding'] = 'chunked'
  return withinHeaderLimit(request)
}

// --- Internal helpers ---

function paramText(param: ParamSpec, pg: Playground): string {
  return 'wire' in param ? param.wire : encode(String(pg[param.playground]))
}

/** A valid secret spelled as SDKs and scripts do (Unleash strips "Bearer " in any case); anything else as is. */
function authHeader(credential: FuzzCredential, spelling: number): string | undefined {
  if (credential.anonymous || !credential.secret) return credential.header
  // The last: whitespace-padded up to a few KB, one token spelled many ways.
  return [
    credential.secret,
    `Bearer ${credential.secret}`,
    `bearer   ${credential.secret}  `,
    `BEARER ${credential.secret}`,
    `Bearer${' \t'.repeat(2_000)}${credential.secret} `,
  ][spelling]
}

/** Node answers 431 past 16 KiB of request line and headers: stay below it (padding first, then the path). */
function withinHeaderLimit(request: FuzzRequest): FuzzRequest {
  const size = () =>
    request.path.length +
    Object.entries(request.headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0)
  const LIMIT = 15_000
  if (size() > LIMIT) delete request.headers['x-fuzz-pad']
  if (size() > LIMIT) delete request.headers['if-none-match']
  if (size() > LIMIT) request.path = request.path.slice(0, Math.max(1, request.path.length - (size() - LIMIT)))
  return request
}

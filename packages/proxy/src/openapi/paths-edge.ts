// The Unleash API routes (docs/edge-compatibility.md): the frontend API for frontend tokens, the
// server-SDK API for client tokens, Edge's operational routes. Operations by route path, in the
// route table's spelling (`/features` routes take the flag name as the last segment).
import { CONTEXT_QUERY, parameterRef } from './responses.js'

type Json = Record<string, unknown>

const FRONTEND = ['Frontend API']
const CLIENT = ['Server-side SDK API']
const EDGE = ['Edge operations']
const TOKEN = [{ apiToken: [] }]

const message = (description: string): Json => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
})
const TOKEN_ERRORS: Json = {
  '401': message('No token, or one the upstream does not know (or has revoked).'),
  '403': message('A token of another type (a client token on the frontend API, a frontend token on the client API).'),
  '503': message('The token could not be checked with the upstream right now, or its scope has no flags yet.'),
}
const json = (description: string, schema: Json = { type: 'object' }): Json => ({
  description,
  content: { 'application/json': { schema } },
})
const toggles: Json = {
  type: 'object',
  properties: { toggles: { type: 'array', items: { $ref: '#/components/schemas/featureSchema' } } },
}
const featureName: Json = { name: 'featureName', in: 'path', required: true, schema: { type: 'string' } }
const contextBody: Json = {
  required: false,
  description: '`{ "context": { ... } }`, or (as Edge accepts) the context object itself.',
  content: { 'application/json': { schema: { type: 'object' } } },
}

function evaluation(summary: string, description: string): Json {
  const common = { tags: FRONTEND, security: TOKEN, summary, description }
  const ok = json('The evaluated toggles, as Unleash 8.2 answers (weak ETag, `Cache-control: no-cache`).', toggles)
  return {
    get: {
      ...common,
      parameters: [...CONTEXT_QUERY, parameterRef('IfNoneMatch')],
      responses: { '200': ok, '304': { description: 'Not modified.' }, ...TOKEN_ERRORS },
    },
    post: {
      ...common,
      requestBody: contextBody,
      responses: { '200': ok, '400': message('The body is not a JSON object.'), ...TOKEN_ERRORS },
    },
  }
}

function posted(tags: string[], summary: string, status: '200' | '202'): Json {
  return {
    post: {
      tags,
      security: TOKEN,
      summary,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        [status]: { description: status === '200' ? '`OK` (text/plain), as Unleash 8.2.' : 'Accepted, empty.' },
        '400': message('The body is not what the SDKs send.'),
        ...TOKEN_ERRORS,
      },
    },
  }
}

const open = (summary: string, description: string, ok: Json, extra: Json = {}): Json => ({
  get: { tags: EDGE, security: [], summary, description, responses: { '200': ok, ...extra } },
})

function frontendPaths(prefix: string, alias: boolean): Record<string, Json> {
  const note = alias ? " (Edge's legacy alias of `/api/frontend`.)" : ''
  return {
    [prefix]: evaluation(
      'Evaluate the enabled toggles for a context',
      `The token's environment and projects decide which flags; the context cannot name another environment.${note}`,
    ),
    [`${prefix}/all`]: evaluation(
      'Evaluate every toggle for a context, disabled ones too',
      `Edge's; off with DISABLE_ALL_ENDPOINT.${note}`,
    ),
    [`${prefix}/features/{featureName}`]: {
      get: {
        tags: FRONTEND,
        security: TOKEN,
        summary: 'Evaluate one toggle',
        parameters: [featureName, ...CONTEXT_QUERY],
        responses: {
          '200': json('The toggle, even when disabled.'),
          '404': message('No such flag for this token.'),
          ...TOKEN_ERRORS,
        },
      },
      post: {
        tags: FRONTEND,
        security: TOKEN,
        summary: 'Evaluate one toggle',
        parameters: [featureName],
        requestBody: contextBody,
        responses: {
          '200': json('The toggle, even when disabled.'),
          '404': message('No such flag for this token.'),
          ...TOKEN_ERRORS,
        },
      },
    },
    [`${prefix}/client/metrics`]: posted(FRONTEND, 'Send usage metrics of a frontend SDK', '200'),
    [`${prefix}/client/register`]: posted(FRONTEND, 'Register a frontend SDK', '200'),
    [`${prefix}/all/client/metrics`]: posted(FRONTEND, 'Send usage metrics of a frontend SDK', '200'),
    [`${prefix}/all/client/register`]: posted(FRONTEND, 'Register a frontend SDK', '200'),
  }
}

export function edgePaths(): Record<string, Json> {
  const features = {
    tags: CLIENT,
    security: TOKEN,
    summary: 'The flag definitions the client token may see',
    description:
      'Segments included; `project` (repeatable) and `namePrefix` filter further. A strong ETag; 304 on If-None-Match.',
    responses: {
      '200': json('`{ version, features, segments, query }`.'),
      '304': { description: 'Not modified.' },
      ...TOKEN_ERRORS,
    },
  }
  return {
    ...frontendPaths('/api/frontend', false),
    ...frontendPaths('/api/proxy', true),
    '/api/client/features': { get: features, post: features },
    '/api/client/features/{featureName}': {
      get: {
        tags: CLIENT,
        security: TOKEN,
        summary: 'One flag definition',
        parameters: [featureName],
        responses: { '200': json('The definition.'), '404': message('No such flag for this token.'), ...TOKEN_ERRORS },
      },
    },
    '/api/client/streaming': {
      get: {
        tags: CLIENT,
        security: TOKEN,
        summary: 'The flag definitions as a stream of changes (server-sent events)',
        description:
          '`unleash-connected` first (a hydration, or `{"events":[]}` when `Last-Event-ID` names the flags the client has), then `unleash-updated` with delta events for each change; a `:keep-alive` comment every STREAMING_KEEPALIVE_MS. The same filters as `/api/client/features`.',
        parameters: [{ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          '404': message('Streaming is off (STREAMING=false): poll instead.'),
          '429': message('STREAMING_MAX_CONNECTIONS streams are open (Retry-After): poll instead.'),
          ...TOKEN_ERRORS,
        },
      },
    },
    '/api/client/delta': {
      get: {
        tags: CLIENT,
        security: TOKEN,
        summary: 'The flag definitions as delta events',
        description:
          '`{"events":[{"type":"hydration",...}]}` with an ETag naming the flags; 304 when If-None-Match names them. The same filters as `/api/client/features`.',
        parameters: [parameterRef('IfNoneMatch')],
        responses: {
          '200': json('`{ events }`.'),
          '304': { description: 'Not modified.' },
          '404': message('Streaming is off (STREAMING=false).'),
          ...TOKEN_ERRORS,
        },
      },
    },
    '/api/client/metrics': posted(CLIENT, 'Send usage metrics of a server SDK', '202'),
    '/api/client/metrics/bulk': posted(CLIENT, "Send usage metrics in Edge's bulk form", '202'),
    '/api/client/register': posted(CLIENT, 'Register a server SDK', '202'),
    '/edge/validate': {
      post: {
        tags: EDGE,
        security: [],
        summary: 'Which of these tokens this proxy accepts',
        description: 'For a proxy or an Edge in front of this one. Unknown tokens are validated upstream (bounded).',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['tokens'],
                properties: { tokens: { type: 'array', items: { type: 'string' } } },
              },
            },
          },
        },
        responses: {
          '200': json('`{ tokens: [{ token, type, projects, environment }] }`.'),
          '400': message('The body is not `{ tokens: [...] }`.'),
        },
      },
    },
    '/internal-backstage/health': open('Liveness, as Edge', 'Always `{"status":"OK"}`.', json('OK.')),
    '/internal-backstage/ready': open(
      'Readiness, as Edge',
      'READY once every scope has flags.',
      json('`{"status":"READY"}`.'),
      { '503': json('`{"error":...,"status":"NOTREADY"}`.') },
    ),
    '/internal-backstage/metrics': open(
      'Prometheus metrics, as Edge',
      'The same registry as /proxy/internal-backstage/prometheus.',
      { description: 'Prometheus text.', content: { 'text/plain': { schema: { type: 'string' } } } },
    ),
    '/internal-backstage/tokens': open(
      'The known token scopes',
      'Scopes and validation state; never a secret.',
      json('`{ tokenRefreshes, tokenValidationStatus, invalidTokenCount }`.'),
    ),
  }
}

// GET/POST /proxy and /proxy/all: evaluation for frontend SDKs (docs/old-proxy-compatibility.md 1.4, 1.5).
// Summaries keep the old wording, so people and tools find the same operations.
import { CONTEXT_QUERY, cachedJson, parameterRef, responseRef } from './responses.js'

type Json = Record<string, unknown>

const TAGS = ['Proxy client']

const lookupBody: Json = {
  required: false,
  description: 'Optional: an absent or empty body evaluates like GET with an empty context.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/lookupTogglesSchema' } } },
}

const POST_DESCRIPTION = [
  'Accepts a JSON object with a `context` property and an optional `toggles` property. Query parameters are ignored.',
  'With `toggles`, the proxy evaluates exactly those names, in that order, and returns each one with `enabled` true or false (unknown names come back disabled); these evaluations are counted in the usage metrics.',
]

// The errors every evaluation route can answer. The checks run 503, 401, then the body (415, 413,
// 400), then 500: the key before the body, unlike the old proxy (behaviour 1.2; README).
const evaluationErrors = (method: 'get' | 'post'): Json => ({
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  ...(method === 'post' ? { '413': responseRef('PayloadTooLarge'), '415': responseRef('UnsupportedMediaType') } : {}),
  '500': responseRef('ServerError'),
  '503': responseRef('NotReady'),
})

function getOperation(summary: string, description: string, ok: string): Json {
  return {
    tags: TAGS,
    summary,
    description,
    parameters: [...CONTEXT_QUERY, parameterRef('IfNoneMatch')],
    responses: {
      '200': cachedJson(ok, 'featuresSchema'),
      '304': responseRef('NotModified'),
      ...evaluationErrors('get'),
    },
  }
}

function postOperation(summary: string, description: string, ok: string): Json {
  return {
    tags: TAGS,
    summary,
    description,
    requestBody: lookupBody,
    // POST sends an ETag and Cache-Control too, but never answers 304.
    responses: { '200': cachedJson(ok, 'featuresSchema'), ...evaluationErrors('post') },
  }
}

/** Says on the operation itself when this proxy answers 501, so the UI shows it at a glance. */
function allOperation(operation: Json, enabled: boolean): Json {
  const responses = { ...(operation.responses as Json), '501': responseRef('NotImplemented') }
  if (enabled) return { ...operation, responses }
  return {
    ...operation,
    summary: `${operation.summary as string} (disabled on this proxy)`,
    description: `**Disabled on this proxy**: every call with an accepted key answers 501 until \`enableAllEndpoint\` (\`ENABLE_ALL_ENDPOINT=true\`) is set.\n\n${operation.description as string}`,
    responses,
  }
}

export function clientPaths(options: { enableAllEndpoint: boolean }): Json {
  return {
    '/proxy': {
      get: getOperation(
        'Retrieve enabled feature toggles for the provided context.',
        'Returns the toggles that evaluate to enabled for the context given as query parameters. No flag configuration (strategies, constraints, user lists) is returned.',
        'The enabled toggles for the provided context.',
      ),
      post: postOperation(
        'Evaluate specific toggles against the provided context.',
        [
          ...POST_DESCRIPTION,
          "Without `toggles`, this works like the GET operation with the body's `context`: it returns the enabled toggles.",
        ].join('\n\n'),
        'The evaluated toggles: the named ones, or the enabled ones.',
      ),
    },
    '/proxy/all': {
      get: allOperation(
        getOperation(
          'Retrieve all feature toggles from the proxy.',
          'Returns every toggle the proxy knows, each with whether it is enabled for the context given as query parameters, in contrast to `/proxy`, which returns only enabled toggles.',
          'Every toggle, evaluated for the provided context.',
        ),
        options.enableAllEndpoint,
      ),
      post: allOperation(
        postOperation(
          'Evaluate some or all toggles against the provided context.',
          [
            ...POST_DESCRIPTION,
            "Without `toggles`, this works like the GET operation with the body's `context`: it returns every toggle.",
          ].join('\n\n'),
          'The evaluated toggles: the named ones, or all of them.',
        ),
        options.enableAllEndpoint,
      ),
    },
  }
}

// OpenFeature's Remote Evaluation Protocol 0.3.0 (README, "OpenFeature (OFREP)"): the bulk and the
// single-flag evaluation, for client keys and frontend tokens. Shapes as the protocol's openapi.yaml.
type Json = Record<string, unknown>

const OFREP = ['OpenFeature (OFREP)']
// A client key or a frontend token, in X-API-Key or Authorization (`Bearer ` optional).
const SECURITY = [{ ofrepApiKey: [] }, { ofrepBearer: [] }]

const json = (description: string, schema: Json): Json => ({ description, content: { 'application/json': { schema } } })
const metadata: Json = {
  type: 'object',
  properties: { enabled: { type: 'boolean' }, impressionData: { type: 'boolean' } },
}
const success: Json = {
  type: 'object',
  required: ['key', 'reason'],
  properties: {
    key: { type: 'string' },
    reason: { type: 'string', enum: ['STATIC', 'TARGETING_MATCH', 'SPLIT', 'DEFAULT', 'DISABLED'] },
    variant: { type: 'string' },
    value: {
      description:
        "Boolean, string, number or object, by the flag's type; absent when the caller's default should win.",
    },
    metadata,
  },
}
const failure: Json = {
  type: 'object',
  required: ['key', 'errorCode'],
  properties: {
    key: { type: 'string' },
    errorCode: { type: 'string', enum: ['FLAG_NOT_FOUND', 'PARSE_ERROR', 'INVALID_CONTEXT', 'GENERAL'] },
    errorDetails: { type: 'string' },
  },
}
const bulkFailure: Json = {
  type: 'object',
  required: ['errorCode'],
  properties: { errorCode: { type: 'string' }, errorDetails: { type: 'string' } },
}
const general: Json = { type: 'object', properties: { errorDetails: { type: 'string' } } }
const requestBody: Json = {
  required: false,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          context: { type: 'object', properties: { targetingKey: { type: 'string' } }, additionalProperties: true },
        },
      },
    },
  },
}
const REFUSALS: Json = {
  '401': json('No key, or a key this proxy does not know.', general),
  '403': json('A token of another type (a client or admin token).', general),
  '503': json(
    "No flags yet for the caller's scope, or its token could not be checked with the upstream right now.",
    general,
  ),
}

export function ofrepPaths(): Record<string, Json> {
  return {
    '/ofrep/v1/evaluate/flags': {
      post: {
        tags: OFREP,
        security: SECURITY,
        summary: "Evaluate every flag of the caller's scope for a context (OFREP bulk evaluation)",
        description: 'A strong ETag over the answer; `If-None-Match` that matches answers 304 without a body.',
        parameters: [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }],
        requestBody,
        responses: {
          '200': {
            ...json('Every flag: a success or a failure item each.', {
              type: 'object',
              required: ['flags'],
              properties: { flags: { type: 'array', items: { oneOf: [success, failure] } } },
            }),
            headers: { ETag: { schema: { type: 'string' } } },
          },
          '304': { description: 'Not modified (the ETag named in If-None-Match is current).' },
          '400': json(
            'PARSE_ERROR (the body is not a JSON object) or INVALID_CONTEXT (`context` is not an object).',
            bulkFailure,
          ),
          ...REFUSALS,
        },
      },
    },
    '/ofrep/v1/evaluate/flags/{featureName}': {
      post: {
        tags: OFREP,
        security: SECURITY,
        summary: 'Evaluate one flag for a context (OFREP single-flag evaluation)',
        parameters: [{ name: 'featureName', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody,
        responses: {
          '200': json("The flag's value, variant and reason.", success),
          '400': json("PARSE_ERROR (the body, or the flag's payload) or INVALID_CONTEXT.", failure),
          '404': json("FLAG_NOT_FOUND: no flag of that key in the caller's scope.", failure),
          '500': json('GENERAL: a custom strategy failed.', failure),
          ...REFUSALS,
        },
      },
    },
  }
}

/** The security schemes of the OFREP operations. */
export const OFREP_SECURITY_SCHEMES: Json = {
  ofrepApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'A client key (the /proxy scope) or a frontend token (its scope).',
  },
  ofrepBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'A client key or a frontend token; `Authorization: <key>` without `Bearer ` works too.',
  },
}

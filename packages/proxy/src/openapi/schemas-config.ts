// Schemas of the flag configuration that GET /proxy/client/features passes on: upstream's
// definitions verbatim (docs/old-proxy-compatibility.md 1.6), so objects allow fields they do not list.

type Schema = Record<string, unknown>

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
const string: Schema = { type: 'string' }
const boolean: Schema = { type: 'boolean' }

/** Every operator the engine evaluates, as SDK 6.12 does (the old proxy's own snapshot test still listed 15). */
const CONSTRAINT_OPERATORS = [
  'IN',
  'NOT_IN',
  'STR_STARTS_WITH',
  'STR_ENDS_WITH',
  'STR_CONTAINS',
  'NUM_EQ',
  'NUM_GT',
  'NUM_GTE',
  'NUM_LT',
  'NUM_LTE',
  'DATE_AFTER',
  'DATE_BEFORE',
  'SEMVER_EQ',
  'SEMVER_GT',
  'SEMVER_LT',
  'SEMVER_GTE',
  'SEMVER_LTE',
  'REGEX',
  'IN_CIDR',
] as const

export const payloadSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'value'],
  properties: {
    type: { type: 'string', enum: ['string', 'json', 'csv', 'number'] },
    value: { type: 'string', description: 'Always a string: a JSON payload is delivered JSON-encoded.' },
  },
}

export const constraintSchema: Schema = {
  type: 'object',
  required: ['contextName', 'operator'],
  properties: {
    contextName: string,
    operator: { type: 'string', enum: [...CONSTRAINT_OPERATORS] },
    values: { type: 'array', items: string },
    value: string,
    inverted: boolean,
    caseInsensitive: boolean,
  },
}

const definitionVariant: Schema = {
  type: 'object',
  required: ['name', 'weight'],
  properties: {
    name: string,
    weight: { type: 'number' },
    weightType: string,
    stickiness: string,
    payload: payloadSchema,
    overrides: {
      type: 'array',
      items: {
        type: 'object',
        required: ['contextName', 'values'],
        properties: { contextName: string, values: { type: 'array', items: string } },
      },
    },
  },
}

const strategySchema: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: string,
    parameters: { type: 'object', additionalProperties: { type: 'string' } },
    constraints: { type: 'array', items: ref('constraintSchema') },
    segments: { type: 'array', items: { type: 'integer' }, description: 'Ids of entries in the top-level `segments`.' },
    variants: { type: 'array', items: definitionVariant },
  },
}

export const clientFeatureSchema: Schema = {
  type: 'object',
  required: ['name', 'enabled'],
  properties: {
    name: string,
    type: string,
    description: { type: 'string', nullable: true },
    enabled: boolean,
    stale: boolean,
    impressionData: boolean,
    project: string,
    strategies: { type: 'array', items: strategySchema },
    variants: { type: 'array', items: definitionVariant },
    dependencies: {
      type: 'array',
      items: {
        type: 'object',
        required: ['feature'],
        properties: { feature: string, enabled: boolean, variants: { type: 'array', items: string } },
      },
    },
  },
}

export const segmentSchema: Schema = {
  type: 'object',
  required: ['id', 'constraints'],
  properties: { id: { type: 'integer' }, name: string, constraints: { type: 'array', items: ref('constraintSchema') } },
}

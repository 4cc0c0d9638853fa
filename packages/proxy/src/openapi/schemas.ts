// Component schemas. The eight names of the old proxy's document are kept (apiRequestSchema …
// variantSchema), so tools and validators that refer to them keep working; the shapes follow what
// Vexil sends and accepts (docs/old-proxy-compatibility.md 1.5, 1.6, 2.2, 3.1, 3.2).

import { clientFeatureSchema, constraintSchema, payloadSchema, segmentSchema } from './schemas-config.js'

type Schema = Record<string, unknown>

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
const string: Schema = { type: 'string' }
const boolean: Schema = { type: 'boolean' }
const count: Schema = { type: 'integer', minimum: 0 }

const contextFields: Schema = {
  appName: string,
  environment: { type: 'string', description: 'Ignored when the proxy pins an environment (`environment` option).' },
  userId: string,
  sessionId: string,
  remoteAddress: { type: 'string', description: "Defaults to the caller's IP address (honouring `trustProxy`)." },
  currentTime: {
    type: 'string',
    description: 'ISO 8601 time used by DATE_AFTER/DATE_BEFORE instead of now; an invalid date is ignored.',
  },
  properties: {
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { region: 'Africa', betaTester: 'true' },
  },
}

export const COMPONENT_SCHEMAS: Record<string, Schema> = {
  apiRequestSchema: {
    type: 'object',
    description: "The proxy's current configuration, as server-side SDKs read it from `/api/client/features`.",
    required: ['version', 'features'],
    properties: {
      version: { type: 'integer', enum: [2] },
      features: { type: 'array', items: clientFeatureSchema },
      // Vexil sends segments; the old proxy dropped them, so SDKs mis-evaluated segment flags (#201).
      segments: { type: 'array', items: segmentSchema },
    },
  },
  featureSchema: {
    type: 'object',
    required: ['name', 'enabled', 'variant'],
    additionalProperties: false,
    properties: {
      name: string,
      enabled: boolean,
      impressionData: {
        type: 'boolean',
        description: 'Always present when the request named its toggles; otherwise only when the definition has it.',
      },
      variant: ref('variantSchema'),
    },
  },
  featuresSchema: {
    type: 'object',
    required: ['toggles'],
    additionalProperties: false,
    properties: { toggles: { type: 'array', items: ref('featureSchema') } },
    // Toggles as the old proxy sent them (docs/old-proxy-compatibility.md 3.3), for the UI's example.
    example: {
      toggles: [
        {
          name: 'zeta.enabled',
          enabled: true,
          variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
          impressionData: true,
        },
        {
          name: 'beta.variants',
          enabled: true,
          variant: {
            name: 'red',
            payload: { type: 'string', value: 'r' },
            enabled: true,
            feature_enabled: true,
            featureEnabled: true,
          },
        },
      ],
    },
  },
  lookupTogglesSchema: {
    type: 'object',
    description: 'Unknown top-level keys are ignored.',
    properties: {
      context: ref('unleashContextSchema'),
      toggles: {
        type: 'array',
        items: string,
        example: ['myToggle', 'yourToggle'],
        description: 'Toggle names to evaluate, in this order; unknown names come back disabled.',
      },
    },
  },
  registerMetricsSchema: {
    type: 'object',
    description: 'Other fields (for example `impactMetrics` from newer SDKs) are accepted and ignored.',
    required: ['appName', 'instanceId', 'bucket'],
    properties: {
      appName: string,
      instanceId: string,
      environment: string,
      bucket: {
        type: 'object',
        required: ['start', 'stop', 'toggles'],
        properties: {
          start: { type: 'string', format: 'date-time' },
          stop: { type: 'string', format: 'date-time' },
          toggles: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              properties: { yes: count, no: count, variants: { type: 'object', additionalProperties: count } },
            },
            example: {
              myCoolToggle: { yes: 25, no: 42, variants: { blue: 6, green: 15, red: 46 } },
              myOtherToggle: { yes: 0, no: 100 },
            },
          },
        },
      },
    },
  },
  registerClientSchema: {
    type: 'object',
    required: ['appName', 'interval', 'started', 'strategies'],
    properties: {
      appName: { type: 'string', description: 'Name of the application' },
      instanceId: {
        type: 'string',
        description: 'Instance id for this application (typically hostname, podId or similar)',
      },
      sdkVersion: { type: 'string', description: 'The SDK version (name:version)' },
      environment: { type: 'string', deprecated: true },
      interval: { type: 'number', description: 'Milliseconds between the metrics this client sends' },
      started: {
        oneOf: [{ type: 'string', format: 'date-time' }, { type: 'number' }],
        description: 'When this client started (ISO 8601 or epoch milliseconds)',
      },
      strategies: { type: 'array', items: string, description: 'Strategies this application implements' },
    },
  },
  unleashContextSchema: {
    type: 'object',
    description: 'Other top-level fields are moved into `properties` (an explicit `properties` entry wins).',
    properties: contextFields,
  },
  variantSchema: {
    type: 'object',
    description: 'A toggle without a variant answers `{ name: "disabled", enabled: false }`.',
    required: ['name', 'enabled'],
    additionalProperties: false,
    properties: {
      name: string,
      enabled: boolean,
      feature_enabled: boolean,
      featureEnabled: boolean,
      payload: payloadSchema,
    },
  },
  constraintSchema,
  segmentSchema,
  errorSchema: {
    type: 'object',
    required: ['error'],
    properties: {
      error: string,
      validation: { type: 'array', items: { type: 'object' }, description: 'What failed validation.' },
    },
  },
}

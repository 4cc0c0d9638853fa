import { Ajv, type ErrorObject } from 'ajv'
import addFormatsPlugin from 'ajv-formats'

// `instanceInsightsSchema`, written from the interface spec section 2.7 (and reference part 2.2):
// every field the spec marks required is required, numbers are JSON numbers, dates are UTC
// date-times at the very end of their day, weeks are ISO `YYYY-WW`.
const count = { type: 'number', minimum: 0 } as const
const date = { type: 'string', format: 'date-time', pattern: 'T23:59:59\\.999Z$' } as const
const week = { type: 'string', pattern: '^\\d{4}-(0[1-9]|[1-4]\\d|5[0-3])$' } as const
const object = (properties: Record<string, unknown>, required: string[]) =>
  ({ type: 'object', additionalProperties: false, required, properties }) as const
const all = (properties: Record<string, unknown>) => object(properties, Object.keys(properties))

export const instanceInsightsSchema = all({
  users: all({ total: count, active: count, inactive: count }),
  flags: all({ total: count }),
  userTrends: { type: 'array', items: all({ date, total: count, active: count, inactive: count }) },
  flagTrends: {
    type: 'array',
    items: all({ date, total: count, active: count, stale: count, potentiallyStale: count }),
  },
  projectFlagTrends: {
    type: 'array',
    items: object(
      {
        week,
        project: { type: 'string' },
        health: { type: 'number', minimum: 0, maximum: 100 },
        timeToProduction: count,
        date,
        total: count,
        active: count,
        stale: count,
        potentiallyStale: count,
        users: count,
      },
      ['week', 'project', 'date', 'total', 'active', 'stale', 'potentiallyStale'],
    ),
  },
  metricsSummaryTrends: {
    type: 'array',
    items: all({
      week,
      date,
      project: { type: 'string' },
      totalRequests: count,
      totalYes: count,
      totalNo: count,
      totalApps: count,
      totalFlags: count,
      totalEnvironments: count,
    }),
  },
  environmentTypeTrends: {
    type: 'array',
    items: all({ date, week, environmentType: { type: 'string' }, totalUpdates: count }),
  },
})

// ajv-formats is CommonJS; under NodeNext its default export is the plugin function at runtime.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (
  ajv: Ajv,
) => Ajv
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }))
const validate = ajv.compile(instanceInsightsSchema)

/** The schema violations of `body`, as readable lines; empty when it conforms. */
export function insightsSchemaErrors(body: unknown): string[] {
  if (validate(body)) return []
  return (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? ''}`)
}

import { z } from 'zod'
import { constraintSchema } from './constraint.js'
import { FILTER_OPERATORS } from './filter-operators.js'

const OPERATORS: readonly string[] = FILTER_OPERATORS

/** One filter of an action set as stored: a constraint on the value at its path in the signal payload. */
export interface PayloadFilter {
  operator: string
  values?: string[] | undefined
  value?: string | undefined
  inverted?: boolean | undefined
  caseInsensitive?: boolean | undefined
}

/**
 * `match.payload`: filters keyed by a dot path into the signal payload, each shaped like a
 * strategy constraint without `contextName` and checked by the constraint schema (the path
 * plays the context name), so single-value operators need `value` and list ones take `values`.
 */
const payloadFiltersSchema = z
  .record(z.string(), z.unknown())
  .superRefine((filters, ctx) => {
    for (const [path, filter] of Object.entries(filters)) {
      if (!path.trim()) {
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: 'has an empty key: a filter needs a path such as data.severity',
        })
        continue
      }
      const operator = (filter as { operator?: unknown } | null)?.operator
      if (!OPERATORS.includes(operator as string)) {
        ctx.addIssue({ code: 'custom', path: [path, 'operator'], message: `must be one of ${OPERATORS.join(', ')}` })
        continue
      }
      const parsed = constraintSchema.safeParse({ ...(filter as object), contextName: path })
      for (const issue of parsed.error?.issues ?? [])
        ctx.addIssue({ code: 'custom', path: [path, ...issue.path.map(String)], message: issue.message })
    }
  })
  .transform((filters) =>
    Object.fromEntries(
      Object.entries(filters).map(([path, filter]): [string, PayloadFilter] => {
        const { contextName: _path, ...rest } = constraintSchema.parse({ ...(filter as object), contextName: path })
        return [path, rest]
      }),
    ),
  )

const actionSchema = z.object({
  action: z.enum(['TOGGLE_FEATURE_ON', 'TOGGLE_FEATURE_OFF'], {
    error: () => 'must be one of TOGGLE_FEATURE_ON, TOGGLE_FEATURE_OFF',
  }),
  sortOrder: z.number().int().min(1).optional(),
  executionParams: z.object({
    project: z.string().min(1, 'is required'),
    environment: z.string().min(1, 'is required'),
    featureName: z.string().min(1, 'is required'),
  }),
})

/** An action set as created or replaced (Unleash's createActionSetSchema). */
export const actionSetSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
    description: z.string().nullish(),
    enabled: z.boolean().optional(),
    actorId: z.number().int().optional(),
    match: z.object({
      source: z.literal('signal-endpoint', { error: () => 'must be "signal-endpoint"' }),
      sourceId: z.number().int(),
      payload: payloadFiltersSchema.default({}),
    }),
    actions: z.array(actionSchema).min(1, 'must list at least one action'),
  })
  .transform((body) => ({
    ...body,
    // Run order: sortOrder, then as listed; a missing sortOrder is the action's position.
    actions: body.actions.map((action, i) => ({ ...action, sortOrder: action.sortOrder ?? i + 1 })),
  }))

export type ActionSetBody = z.output<typeof actionSetSchema>

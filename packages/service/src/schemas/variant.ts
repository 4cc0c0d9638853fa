import { z } from 'zod'

const payloadSchema = z.object({
  type: z.enum(['json', 'csv', 'string', 'number'], { error: () => 'must be one of json, csv, string, number' }),
  value: z.string(),
})

const overrideSchema = z.object({
  contextName: z.string().min(1, 'is required'),
  values: z.array(z.coerce.string()),
})

/** A feature (environment) variant, as Unleash's variantSchema. */
export const variantSchema = z.object({
  name: z.string().min(1, 'is required'),
  weight: z.number().int().min(0).max(1000).default(0),
  weightType: z.enum(['variable', 'fix']).default('variable'),
  stickiness: z.string().min(1).default('default'),
  payload: payloadSchema.optional(),
  overrides: z.array(overrideSchema).optional(),
})

/** A strategy variant (no overrides), as Unleash's createStrategyVariantSchema. */
export const strategyVariantSchema = variantSchema.omit({ overrides: true })

export type VariantInput = z.output<typeof variantSchema>

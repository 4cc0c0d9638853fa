import { z } from 'zod'
import { constraintSchema } from './constraint.js'
import { strategyVariantSchema } from './variant.js'

// Unleash parameters are strings; numbers and booleans sent by scripts are stored as strings.
const parametersSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean()]).transform((value) => String(value)),
)

/** Body of POST/PUT …/environments/:env/strategies (Unleash createFeatureStrategySchema). */
export const strategyBodySchema = z.object({
  name: z.string().min(1, 'is required'),
  title: z.string().nullish(),
  disabled: z.boolean().nullish(),
  sortOrder: z.number().int().optional(),
  constraints: z.array(constraintSchema).default([]),
  parameters: parametersSchema.default({}),
  variants: z.array(strategyVariantSchema).default([]),
  segments: z.array(z.number().int()).default([]),
})

export type StrategyBody = z.output<typeof strategyBodySchema>

/** Body of POST …/strategies/set-sort-order. */
export const sortOrderSchema = z.array(z.object({ id: z.string().min(1), sortOrder: z.number().int() }))

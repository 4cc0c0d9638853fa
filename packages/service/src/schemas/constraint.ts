import { SUPPORTED_OPERATORS } from '@vexil/engine'
import { z } from 'zod'
import { URL_SAFE_NAME_MAX_LENGTH, URL_SAFE_NAME_PATTERN, URL_SAFE_NAME_RULE } from '../url-safe-name.js'

/** URL-safe names, as Unleash requires for flags, projects and environments. */
export const urlSafeName = z
  .string()
  .min(1, 'must not be empty')
  .max(URL_SAFE_NAME_MAX_LENGTH, `must be at most ${URL_SAFE_NAME_MAX_LENGTH} characters`)
  .regex(URL_SAFE_NAME_PATTERN, URL_SAFE_NAME_RULE)

const SINGLE_VALUE = /^(NUM_|DATE_|SEMVER_|REGEX$)/

/** A strategy or segment constraint; every operator the engine evaluates is accepted. */
export const constraintSchema = z
  .object({
    contextName: z.string().min(1, 'is required'),
    operator: z.enum(SUPPORTED_OPERATORS as [string, ...string[]], {
      error: () => `must be one of ${SUPPORTED_OPERATORS.join(', ')}`,
    }),
    values: z.array(z.coerce.string()).optional(),
    value: z.coerce.string().optional(),
    inverted: z.boolean().optional(),
    caseInsensitive: z.boolean().optional(),
  })
  .superRefine((c, ctx) => {
    // Unleash stores single-value operators in `value` and list operators in `values`.
    if (SINGLE_VALUE.test(c.operator) && (c.value === undefined || c.value === '')) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `is required for operator ${c.operator}` })
    }
  })
  .transform((c) => ({
    contextName: c.contextName,
    operator: c.operator,
    ...(SINGLE_VALUE.test(c.operator) ? { value: c.value } : { values: c.values ?? [] }),
    inverted: c.inverted ?? false,
    caseInsensitive: c.caseInsensitive ?? false,
  }))

export type Constraint = z.output<typeof constraintSchema>

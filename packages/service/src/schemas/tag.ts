import { z } from 'zod'

/** A tag `{ type, value }`; Unleash allows values of 2 to 50 characters. */
export const tagSchema = z.object({
  type: z.string().min(1, 'is required'),
  value: z.string().trim().min(2, 'must be 2 to 50 characters').max(50, 'must be 2 to 50 characters'),
})

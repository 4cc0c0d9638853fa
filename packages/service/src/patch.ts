import jsonPatch from 'fast-json-patch'
import { z } from 'zod'
import { badData } from './errors.js'

/** An RFC 6902 JSON Patch body, as Unleash's PATCH routes take. */
export const patchSchema = z.array(
  z.object({
    op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
    path: z.string(),
    value: z.unknown().optional(),
    from: z.string().optional(),
  }),
)

/** Applies the patch to a copy of `document`; a failing operation is a 400 naming it. */
export function applyJsonPatch<T>(document: T, patch: z.output<typeof patchSchema>): unknown {
  try {
    return jsonPatch.applyPatch(structuredClone(document), patch as jsonPatch.Operation[], true, false).newDocument
  } catch (error) {
    throw badData(`The JSON patch can not be applied: ${(error as Error).message.split('\n')[0]}`)
  }
}

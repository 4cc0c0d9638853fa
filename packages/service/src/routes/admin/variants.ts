import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { requireFeature, requireProjectEnvironment } from '../../domain/lookups.js'
import { setFlagVariants, setFlagVariantsIn } from '../../domain/variants.js'
import { applyJsonPatch, patchSchema } from '../../patch.js'
import { type VariantInput, variantSchema } from '../../schemas/variant.js'
import { featureEnvironments } from '../../store/features.js'
import { parseWith, readBodyWith } from '../../validate.js'
import { change, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const FEATURE = '/api/admin/projects/:projectId/features/:featureName'
const variantsSchema = z.array(variantSchema)

/**
 * Feature variants, stored per environment as in Unleash 5+. The flag-level routes read the
 * first environment's variants and write every environment of the project.
 */
export function registerVariantRoutes(api: ApiRouter, ctx: ServiceContext): void {
  async function current(event: H3Event, environment?: string) {
    const feature = await requireFeature(ctx.db, param(event, 'projectId'), param(event, 'featureName'))
    const rows = await featureEnvironments(ctx.db, feature.name)
    const row = environment ? rows.find((r) => r.name === environment) : rows[0]
    return (row?.variants ?? []) as VariantInput[]
  }

  /** Stores `variants` in the given environments (all of the project's when none). */
  async function save(event: H3Event, variants: VariantInput[], environments?: string[]) {
    const input = { project: param(event, 'projectId'), feature: param(event, 'featureName'), variants, environments }
    return { version: 1, variants: await change(ctx, event, (c) => setFlagVariants(c, input)) }
  }

  const read = async (event: H3Event, environment?: string) => {
    if (environment) await requireProjectEnvironment(ctx.db, param(event, 'projectId'), environment)
    return { version: 1, variants: await current(event, environment) }
  }
  const put = async (event: H3Event, environment?: string) =>
    save(event, await readBodyWith(event, variantsSchema, []), environment ? [environment] : undefined)
  const patch = async (event: H3Event, environment?: string) => {
    const operations = await readBodyWith(event, patchSchema, [])
    const patched = applyJsonPatch(await current(event, environment), operations)
    return save(event, parseWith(variantsSchema, patched, 'patched variants'), environment ? [environment] : undefined)
  }

  api.get(
    `${FEATURE}/variants`,
    'admin',
    eventHandler((event) => read(event)),
  )
  api.put(
    `${FEATURE}/variants`,
    'admin',
    eventHandler((event) => put(event)),
  )
  api.patch(
    `${FEATURE}/variants`,
    'admin',
    eventHandler((event) => patch(event)),
  )
  api.get(
    `${FEATURE}/environments/:environment/variants`,
    'admin',
    eventHandler((event) => read(event, param(event, 'environment'))),
  )
  api.put(
    `${FEATURE}/environments/:environment/variants`,
    'admin',
    eventHandler((event) => put(event, param(event, 'environment'))),
  )
  api.patch(
    `${FEATURE}/environments/:environment/variants`,
    'admin',
    eventHandler((event) => patch(event, param(event, 'environment'))),
  )

  api.put(
    `${FEATURE}/variants-batch`,
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(
        event,
        z.object({
          variants: variantsSchema,
          environments: z.array(z.string().min(1)).min(1, 'must list at least one environment'),
        }),
      )
      const input = { project: param(event, 'projectId'), feature: param(event, 'featureName'), ...body }
      return { version: 1, variants: await change(ctx, event, (c) => setFlagVariantsIn(c, input)) }
    }),
  )
}

import { eventHandler, getQuery } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { featureEnvironments } from '../../store/features.js'
import { iso } from '../../store/rows.js'
import { listStrategies, toStrategy } from '../../store/strategies.js'
import { readBodyWith } from '../../validate.js'
import { change, empty, param } from '../http.js'
import { requireFeature, requireProjectEnvironment } from '../../domain/lookups.js'
import { setFlagEnabled, setFlagsEnabled } from '../../domain/toggle.js'
import type { ApiRouter } from '../api-router.js'

const ENV = '/api/admin/projects/:projectId/features/:featureName/environments/:environment'
const BULK = '/api/admin/projects/:projectId/bulk_features/environments/:environment'

/** A flag's state in one environment: read it, turn it on or off, one flag or many. */
export function registerFeatureEnvironmentRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    ENV,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const environment = param(event, 'environment')
      const feature = await requireFeature(ctx.db, project, param(event, 'featureName'))
      await requireProjectEnvironment(ctx.db, project, environment)
      const state = (await featureEnvironments(ctx.db, feature.name)).find((row) => row.name === environment)
      return {
        name: environment,
        environment,
        featureName: feature.name,
        type: state?.type,
        enabled: state?.enabled ?? false,
        sortOrder: state?.sort_order,
        variants: state?.variants ?? [],
        lastSeenAt: iso(state?.last_seen_at),
        strategies: (await listStrategies(ctx.db, feature.name, environment)).map(toStrategy),
      }
    }),
  )

  for (const [action, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    api.post(
      `${ENV}/${action}`,
      'admin',
      eventHandler(async (event) => {
        const project = param(event, 'projectId')
        const environment = param(event, 'environment')
        const activate = getQuery(event).shouldActivateDisabledStrategies === 'true'
        const feature = param(event, 'featureName')
        await change(ctx, event, (c) =>
          setFlagEnabled(c, { project, feature, environment, enabled, activateDisabled: activate }),
        )
        return empty(event)
      }),
    )

    api.post(
      `${BULK}/${action}`,
      'admin',
      eventHandler(async (event) => {
        const project = param(event, 'projectId')
        const environment = param(event, 'environment')
        const activate = getQuery(event).shouldActivateDisabledStrategies === 'true'
        const { features } = await readBodyWith(
          event,
          z.object({ features: z.array(z.string().min(1)).min(1, 'must list at least one flag') }),
        )
        await change(ctx, event, (c) =>
          setFlagsEnabled(c, { project, features, environment, enabled, activateDisabled: activate }),
        )
        return empty(event)
      }),
    )
  }
}

import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import {
  actionSetView,
  createActionSet,
  deleteActionSet,
  requireActionSet,
  setActionSetEnabled,
  updateActionSet,
} from '../../domain/action-sets.js'
import { requireProject } from '../../domain/lookups.js'
import { actionSetSchema } from '../../schemas/action-set.js'
import { listActionSetEvents } from '../../store/action-set-events.js'
import * as store from '../../store/action-sets.js'
import { queryWith, readBodyWith } from '../../validate.js'
import { change, created, empty, intParam, param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const BASE = '/api/admin/projects/:projectId/actions'

/** Action sets of a project (Unleash Enterprise's actions API; ADMIN): CRUD, on/off, and their runs. */
export function registerActionRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const limits = ctx.config.signals
  api.get(
    BASE,
    'admin',
    eventHandler(async (event) => {
      const project = (await requireProject(ctx.db, param(event, 'projectId'))).id
      const rows = await store.listActionSets(ctx.db, project)
      const actions = await store.actionsOf(
        ctx.db,
        rows.map((row) => row.id),
      )
      return { actions: rows.map((row) => store.toActionSet(row, actions.get(row.id) ?? [])) }
    }),
  )

  api.get(
    `${BASE}/:id`,
    'admin',
    eventHandler(async (event) =>
      actionSetView(ctx.db, await requireActionSet(ctx.db, param(event, 'projectId'), intParam(event, 'id'))),
    ),
  )

  api.post(
    BASE,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const body = await readBodyWith(event, actionSetSchema)
      const result = await change(ctx, event, (c) => createActionSet(c, project, body, limits))
      return created(event, ['projects', project, 'actions', result.id], result)
    }),
  )

  api.put(
    `${BASE}/:id`,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const id = intParam(event, 'id')
      const body = await readBodyWith(event, actionSetSchema)
      return change(ctx, event, (c) => updateActionSet(c, project, id, body, limits))
    }),
  )

  for (const [action, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    api.post(
      `${BASE}/:id/${action}`,
      'admin',
      eventHandler(async (event) => {
        const project = param(event, 'projectId')
        const id = intParam(event, 'id')
        return change(ctx, event, (c) => setActionSetEnabled(c, project, id, enabled))
      }),
    )
  }

  api.delete(
    `${BASE}/:id`,
    'admin',
    eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const id = intParam(event, 'id')
      await change(ctx, event, (c) => deleteActionSet(c, project, id))
      return empty(event)
    }),
  )

  api.get(
    `${BASE}/:id/events`,
    'admin',
    eventHandler(async (event) => {
      const set = await requireActionSet(ctx.db, param(event, 'projectId'), intParam(event, 'id'))
      const { limit, offset } = queryWith(
        event,
        z.object({
          limit: z.coerce.number().int().min(1).max(1000).default(50),
          offset: z.coerce.number().int().min(0).default(0),
        }),
      )
      return { actionSetEvents: await listActionSetEvents(ctx.db, set.id, limit, offset) }
    }),
  )
}

import { eventHandler } from 'h3'
import { z } from 'zod'
import { checkActionSet } from '../../actions/check-action-set.js'
import type { ServiceContext } from '../../context.js'
import type { Queryable } from '../../db/database.js'
import { nameExists, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { actionSetSchema } from '../../schemas/action-set.js'
import { enforceLimit } from '../../signals/limits.js'
import { listActionSetEvents } from '../../store/action-set-events.js'
import * as store from '../../store/action-sets.js'
import { queryWith, readBodyWith } from '../../validate.js'
import { change, created, empty, intParam, param } from '../http.js'
import { requireProject } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const BASE = '/api/admin/projects/:projectId/actions'

/** Action sets of a project (Unleash Enterprise's actions API; ADMIN): CRUD, on/off, and their runs. */
export function registerActionRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const limits = ctx.config.signals
  const load = async (q: Queryable, project: string, id: number) => {
    await requireProject(q, project)
    const row = await store.getActionSet(q, project, id)
    if (!row) throw notFound(`Action set ${id} in project "${project}"`)
    return row
  }
  const view = async (q: Queryable, row: store.ActionSetRow) => store.toActionSet(row, (await store.actionsOf(q, [row.id])).get(row.id) ?? [])

  api.get(BASE, 'admin', eventHandler(async (event) => {
    const project = (await requireProject(ctx.db, param(event, 'projectId'))).id
    const rows = await store.listActionSets(ctx.db, project)
    const actions = await store.actionsOf(ctx.db, rows.map((row) => row.id))
    return { actions: rows.map((row) => store.toActionSet(row, actions.get(row.id) ?? [])) }
  }))

  api.get(`${BASE}/:id`, 'admin', eventHandler(async (event) => view(ctx.db, await load(ctx.db, param(event, 'projectId'), intParam(event, 'id')))))

  api.post(BASE, 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const body = await readBodyWith(event, actionSetSchema)
    const result = await change(ctx, event, async (tx, actor) => {
      await requireProject(tx, project)
      await enforceLimit(tx, { scope: `action-sets:${project}`, resource: 'action set', limit: limits.actionSetsPerProjectLimit, count: () => store.countActionSets(tx, project) })
      if (await store.actionSetNameTaken(tx, project, body.name)) throw nameExists(`An action set named "${body.name}" already exists in project "${project}".`)
      const input = await checkActionSet(tx, project, body, { limits, now: ctx.clock() })
      const row = await store.insertActionSet(tx, project, input, ctx.clock(), actor.userId)
      const saved = await view(tx, row)
      await writeEvent(tx, actor, ctx.clock, { type: 'actions-created', project, data: saved })
      return saved
    })
    return created(event, ['projects', project, 'actions', result.id], result)
  }))

  api.put(`${BASE}/:id`, 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const id = intParam(event, 'id')
    const body = await readBodyWith(event, actionSetSchema)
    return change(ctx, event, async (tx, actor) => {
      const before = await view(tx, await load(tx, project, id))
      if (await store.actionSetNameTaken(tx, project, body.name, id)) throw nameExists(`An action set named "${body.name}" already exists in project "${project}".`)
      const input = await checkActionSet(tx, project, body, { limits, now: ctx.clock(), currentActorId: before.actorId })
      const saved = await view(tx, await store.updateActionSet(tx, id, input, ctx.clock(), actor.userId))
      await writeEvent(tx, actor, ctx.clock, { type: 'actions-updated', project, data: saved, preData: before })
      return saved
    })
  }))

  for (const [action, enabled] of [['on', true], ['off', false]] as const) {
    api.post(`${BASE}/:id/${action}`, 'admin', eventHandler(async (event) => {
      const project = param(event, 'projectId')
      const id = intParam(event, 'id')
      return change(ctx, event, async (tx, actor) => {
        const before = await view(tx, await load(tx, project, id))
        const saved = await view(tx, await store.setActionSetEnabled(tx, id, enabled))
        await writeEvent(tx, actor, ctx.clock, { type: 'actions-updated', project, data: saved, preData: before })
        return saved
      })
    }))
  }

  api.delete(`${BASE}/:id`, 'admin', eventHandler(async (event) => {
    const project = param(event, 'projectId')
    const id = intParam(event, 'id')
    await change(ctx, event, async (tx, actor) => {
      const before = await view(tx, await load(tx, project, id))
      await store.deleteActionSet(tx, id)
      await writeEvent(tx, actor, ctx.clock, { type: 'actions-deleted', project, preData: before })
    })
    return empty(event)
  }))

  api.get(`${BASE}/:id/events`, 'admin', eventHandler(async (event) => {
    const set = await load(ctx.db, param(event, 'projectId'), intParam(event, 'id'))
    const { limit, offset } = queryWith(event, z.object({
      limit: z.coerce.number().int().min(1).max(1000).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    }))
    return { actionSetEvents: await listActionSetEvents(ctx.db, set.id, limit, offset) }
  }))
}

import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import type { Queryable } from '../../db/database.js'
import { nameExists, notFound, ServiceError } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { SIGNAL_ENDPOINT_NAME_MAX_LENGTH, SIGNAL_ENDPOINT_NAME_PATTERN, SIGNAL_ENDPOINT_NAME_RULE } from '../../signals/endpoint-name.js'
import { enforceLimit } from '../../signals/limits.js'
import { newSignalTokenSecret } from '../../signals/signal-token-secrets.js'
import { actionSetsUsing } from '../../store/action-sets.js'
import * as store from '../../store/signal-endpoints.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, intParam } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const BASE = '/api/admin/signal-endpoints'

const endpointSchema = z.object({
  name: z.string().min(1, 'is required').max(SIGNAL_ENDPOINT_NAME_MAX_LENGTH, `must be at most ${SIGNAL_ENDPOINT_NAME_MAX_LENGTH} characters`)
    .regex(SIGNAL_ENDPOINT_NAME_PATTERN, SIGNAL_ENDPOINT_NAME_RULE),
  description: z.string().nullish(),
  enabled: z.boolean().optional(),
})

const tokenSchema = z.object({ name: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters') })

/**
 * Where signals for this endpoint are POSTed: `PUBLIC_URL`, else `http://localhost:<port>` (as
 * Unleash defaults its own URL), the port being the one this request reached (`PORT=0` picks it
 * at listen). Never the Host header: an admin pastes this address into another system, so a
 * forged Host would send that system's signals and tokens elsewhere.
 */
function ingestUrl(ctx: ServiceContext, event: H3Event, name: string): string {
  const base = ctx.config.publicUrl ?? `http://localhost:${event.node.req.socket.localPort ?? ctx.config.port}`
  return `${base}/api/signal-endpoint/${name}`
}

/** `/api/admin/signal-endpoints` and their tokens (Unleash Enterprise's signal endpoint API; ADMIN). */
export function registerSignalEndpointRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const { endpointsLimit, tokensPerEndpointLimit } = ctx.config.signals
  const load = async (q: Queryable, id: number) => {
    const row = await store.getSignalEndpoint(q, id)
    if (!row) throw notFound(`Signal endpoint ${id}`)
    return row
  }
  const view = async (row: store.SignalEndpointRow, url?: string) => store.toSignalEndpoint(row, await store.listSignalTokens(ctx.db, [row.id]), url)

  api.get(BASE, 'admin', eventHandler(async () => {
    const [rows, tokens] = await Promise.all([store.listSignalEndpoints(ctx.db), store.listSignalTokens(ctx.db)])
    return { signalEndpoints: rows.map((row) => store.toSignalEndpoint(row, tokens.filter((t) => t.signal_endpoint_id === row.id))) }
  }))

  api.post(BASE, 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, endpointSchema)
    const row = await change(ctx, event, async (tx, actor) => {
      await enforceLimit(tx, { scope: 'signal-endpoints', resource: 'signal endpoint', limit: endpointsLimit, count: () => store.countSignalEndpoints(tx) })
      if (await store.signalEndpointNameTaken(tx, body.name)) throw nameExists(`A signal endpoint named "${body.name}" already exists.`)
      const inserted = await store.insertSignalEndpoint(tx, body, ctx.clock(), actor.userId)
      await writeEvent(tx, actor, ctx.clock, { type: 'signal-endpoint-created', data: store.toSignalEndpoint(inserted, []) })
      return inserted
    })
    return created(event, ['signal-endpoints', row.id], store.toSignalEndpoint(row, [], ingestUrl(ctx, event, row.name)))
  }))

  api.put(`${BASE}/:id`, 'admin', eventHandler(async (event) => {
    const id = intParam(event, 'id')
    const body = await readBodyWith(event, endpointSchema)
    const row = await change(ctx, event, async (tx, actor) => {
      const before = await load(tx, id)
      if (await store.signalEndpointNameTaken(tx, body.name, id)) throw nameExists(`A signal endpoint named "${body.name}" already exists.`)
      const after = await store.updateSignalEndpoint(tx, id, body)
      await writeEvent(tx, actor, ctx.clock, { type: 'signal-endpoint-updated', data: store.toSignalEndpoint(after, []), preData: store.toSignalEndpoint(before, []) })
      return after
    })
    return view(row, ingestUrl(ctx, event, row.name))
  }))

  for (const [action, enabled] of [['on', true], ['off', false]] as const) {
    api.post(`${BASE}/:id/${action}`, 'admin', eventHandler(async (event) => {
      const id = intParam(event, 'id')
      const row = await change(ctx, event, async (tx, actor) => {
        const before = await load(tx, id)
        const after = await store.updateSignalEndpoint(tx, id, { ...before, enabled })
        await writeEvent(tx, actor, ctx.clock, { type: 'signal-endpoint-updated', data: store.toSignalEndpoint(after, []), preData: store.toSignalEndpoint(before, []) })
        return after
      })
      return view(row)
    }))
  }

  api.delete(`${BASE}/:id`, 'admin', eventHandler(async (event) => {
    const id = intParam(event, 'id')
    await change(ctx, event, async (tx, actor) => {
      const row = await load(tx, id)
      const users = await actionSetsUsing(tx, id)
      if (users.length > 0) throw new ServiceError('ConflictError', `Signal endpoint ${id} is used by action sets (${users.join(', ')}); delete or change them first.`)
      await store.deleteSignalEndpoint(tx, id)
      await writeEvent(tx, actor, ctx.clock, { type: 'signal-endpoint-deleted', preData: store.toSignalEndpoint(row, []) })
    })
    return empty(event)
  }))

  api.get(`${BASE}/:id/tokens`, 'admin', eventHandler(async (event) => {
    const endpoint = await load(ctx.db, intParam(event, 'id'))
    return { signalEndpointTokens: (await store.listSignalTokens(ctx.db, [endpoint.id])).map((row) => store.toSignalToken(row)) }
  }))

  api.post(`${BASE}/:id/tokens`, 'admin', eventHandler(async (event) => {
    const id = intParam(event, 'id')
    const { name } = await readBodyWith(event, tokenSchema)
    const secret = newSignalTokenSecret()
    const row = await change(ctx, event, async (tx, actor) => {
      await load(tx, id)
      await enforceLimit(tx, { scope: `signal-endpoint-tokens:${id}`, resource: 'signal endpoint token', limit: tokensPerEndpointLimit, count: () => store.countSignalTokens(tx, id) })
      const inserted = await store.insertSignalToken(tx, { endpointId: id, name, secret }, ctx.clock(), actor.userId)
      await writeEvent(tx, actor, ctx.clock, { type: 'signal-endpoint-token-created', data: store.toSignalToken(inserted) })
      return inserted
    })
    return created(event, ['signal-endpoints', id, 'tokens', row.id], store.toSignalToken(row, secret))
  }))

  const loadToken = async (q: Queryable, event: H3Event) => {
    const endpointId = intParam(event, 'id')
    const tokenId = intParam(event, 'tokenId')
    const row = await store.getSignalToken(q, endpointId, tokenId)
    if (!row) throw notFound(`Token ${tokenId} of signal endpoint ${endpointId}`)
    return row
  }

  api.put(`${BASE}/:id/tokens/:tokenId`, 'admin', eventHandler(async (event) => {
    const { name } = await readBodyWith(event, tokenSchema)
    return change(ctx, event, async (tx, actor) => {
      const before = await loadToken(tx, event)
      const after = await store.renameSignalToken(tx, before.id, name)
      await writeEvent(tx, actor, ctx.clock, { type: 'signal-endpoint-token-updated', data: store.toSignalToken(after), preData: store.toSignalToken(before) })
      return store.toSignalToken(after)
    })
  }))

  api.delete(`${BASE}/:id/tokens/:tokenId`, 'admin', eventHandler(async (event) => {
    await change(ctx, event, async (tx, actor) => {
      const row = await loadToken(tx, event)
      await store.deleteSignalToken(tx, row.id)
      await writeEvent(tx, actor, ctx.clock, { type: 'signal-endpoint-token-deleted', preData: store.toSignalToken(row) })
    })
    return empty(event)
  }))
}

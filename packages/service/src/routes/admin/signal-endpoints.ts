import type { H3Event } from 'h3'
import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { createSignalToken, deleteSignalToken, renameSignalToken } from '../../domain/signal-endpoint-tokens.js'
import {
  createSignalEndpoint,
  deleteSignalEndpoint,
  requireSignalEndpoint,
  setSignalEndpointEnabled,
  updateSignalEndpoint,
} from '../../domain/signal-endpoints.js'
import {
  SIGNAL_ENDPOINT_NAME_MAX_LENGTH,
  SIGNAL_ENDPOINT_NAME_PATTERN,
  SIGNAL_ENDPOINT_NAME_RULE,
} from '../../signals/endpoint-name.js'
import * as store from '../../store/signal-endpoints.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, intParam } from '../http.js'
import type { ApiRouter } from '../api-router.js'

const BASE = '/api/admin/signal-endpoints'

const endpointSchema = z.object({
  name: z
    .string()
    .min(1, 'is required')
    .max(SIGNAL_ENDPOINT_NAME_MAX_LENGTH, `must be at most ${SIGNAL_ENDPOINT_NAME_MAX_LENGTH} characters`)
    .regex(SIGNAL_ENDPOINT_NAME_PATTERN, SIGNAL_ENDPOINT_NAME_RULE),
  description: z.string().nullish(),
  enabled: z.boolean().optional(),
})

const tokenSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
})

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
  const view = async (row: store.SignalEndpointRow, url?: string) =>
    store.toSignalEndpoint(row, await store.listSignalTokens(ctx.db, [row.id]), url)

  api.get(
    BASE,
    'admin',
    eventHandler(async () => {
      const [rows, tokens] = await Promise.all([store.listSignalEndpoints(ctx.db), store.listSignalTokens(ctx.db)])
      return {
        signalEndpoints: rows.map((row) =>
          store.toSignalEndpoint(
            row,
            tokens.filter((t) => t.signal_endpoint_id === row.id),
          ),
        ),
      }
    }),
  )

  api.post(
    BASE,
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, endpointSchema)
      const row = await change(ctx, event, (c) => createSignalEndpoint(c, body, endpointsLimit))
      return created(
        event,
        ['signal-endpoints', row.id],
        store.toSignalEndpoint(row, [], ingestUrl(ctx, event, row.name)),
      )
    }),
  )

  api.put(
    `${BASE}/:id`,
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      const body = await readBodyWith(event, endpointSchema)
      const row = await change(ctx, event, (c) => updateSignalEndpoint(c, id, body))
      return view(row, ingestUrl(ctx, event, row.name))
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
        const id = intParam(event, 'id')
        const row = await change(ctx, event, (c) => setSignalEndpointEnabled(c, id, enabled))
        return view(row)
      }),
    )
  }

  api.delete(
    `${BASE}/:id`,
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      await change(ctx, event, (c) => deleteSignalEndpoint(c, id))
      return empty(event)
    }),
  )

  api.get(
    `${BASE}/:id/tokens`,
    'admin',
    eventHandler(async (event) => {
      const endpoint = await requireSignalEndpoint(ctx.db, intParam(event, 'id'))
      return {
        signalEndpointTokens: (await store.listSignalTokens(ctx.db, [endpoint.id])).map((row) =>
          store.toSignalToken(row),
        ),
      }
    }),
  )

  api.post(
    `${BASE}/:id/tokens`,
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      const { name } = await readBodyWith(event, tokenSchema)
      const { row, secret } = await change(ctx, event, (c) => createSignalToken(c, id, name, tokensPerEndpointLimit))
      return created(event, ['signal-endpoints', id, 'tokens', row.id], store.toSignalToken(row, secret))
    }),
  )

  api.put(
    `${BASE}/:id/tokens/:tokenId`,
    'admin',
    eventHandler(async (event) => {
      const { name } = await readBodyWith(event, tokenSchema)
      const [id, tokenId] = [intParam(event, 'id'), intParam(event, 'tokenId')]
      return store.toSignalToken(await change(ctx, event, (c) => renameSignalToken(c, id, tokenId, name)))
    }),
  )

  api.delete(
    `${BASE}/:id/tokens/:tokenId`,
    'admin',
    eventHandler(async (event) => {
      const [id, tokenId] = [intParam(event, 'id'), intParam(event, 'tokenId')]
      await change(ctx, event, (c) => deleteSignalToken(c, id, tokenId))
      return empty(event)
    }),
  )
}

import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { requireEnvironment } from '../../domain/lookups.js'
import { readClientFeatures } from '../../store/client-features.js'
import { recentContexts, rememberContext } from '../../store/playground-contexts.js'
import { queryWith, readBodyWith } from '../../validate.js'
import { empty } from '../http.js'
import type { ApiRouter } from '../api-router.js'

/** A context larger than this, as JSON, is refused: the playground's contexts are a person's input, not payloads. */
const MAX_CONTEXT_BYTES = 4096

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

// z.record would rebuild the object (and drop a `__proto__` key); the context is kept as sent.
const contextSchema = z
  .custom<Record<string, unknown>>(isPlainObject, { error: 'must be an object (an Unleash context)' })
  .refine((context) => Buffer.byteLength(JSON.stringify(context), 'utf8') <= MAX_CONTEXT_BYTES, {
    error: `must be at most ${MAX_CONTEXT_BYTES} bytes as JSON`,
  })

const featuresQuerySchema = z.object({ environment: z.string().min(1, 'is required') })

/**
 * `/api/admin/playground`: what the admin UI's playground evaluates in the browser. The features
 * are exactly what `/api/client/features` gives a client token of all projects in the
 * environment (the same builder), so the playground answers what an SDK or the proxy would.
 */
export function registerPlaygroundRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/playground/features',
    'admin',
    eventHandler(async (event) => {
      const { environment } = queryWith(event, featuresQuerySchema)
      await requireEnvironment(ctx.db, environment)
      return readClientFeatures(ctx.db, { environment })
    }),
  )

  api.get(
    '/api/admin/playground/contexts',
    'admin',
    eventHandler(async () => ({ contexts: await recentContexts(ctx.db) })),
  )

  api.post(
    '/api/admin/playground/contexts',
    'admin',
    eventHandler(async (event) => {
      const { context } = await readBodyWith(event, z.object({ context: contextSchema }))
      await rememberContext(ctx.db, context, ctx.clock())
      return empty(event, 204)
    }),
  )
}

import { createHash } from 'node:crypto'
import { matchesIfNoneMatch } from '@vexil/server-kit'
import type { H3Event } from 'h3'
import { eventHandler, getRequestHeader, setResponseHeader, setResponseStatus } from 'h3'
import type { ServiceContext } from '../../service-context.js'
import { notFound } from '../../errors.js'
import { createLruCache } from '../../lru-cache.js'
import {
  type ClientFeaturesQuery,
  readClientFeatures,
  readClientFeaturesSnapshot,
  scopeKey,
} from '../../store/client-features.js'
import { clientQuery } from './client-query.js'
import { readRevision } from '../../store/revision.js'
import { param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

/** One scope's answer at one revision: the body bytes and their ETag. */
interface CachedAnswer {
  revision: number
  body: string
  etag: string
}

/** Scopes (token environment and projects, query filters) whose answers are kept, and their total size. */
const CACHE_ENTRIES = 1_000
const CACHE_BYTES = 64 * 1024 * 1024

/**
 * `GET /api/client/features`: the token's environment and projects, narrowed by the `project`,
 * `namePrefix` and `tag` query filters. A strong ETag over the body bytes; 304 on If-None-Match.
 *
 * Answers are cached per scope at the revision they were read at (store/revision.ts), in this
 * app's own cache: a poll at an unchanged revision costs one revision query, no snapshot and no
 * hash. The revision comes from the database, so a change made through another instance is seen.
 */
export function registerClientFeatureRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const cache = createLruCache<string, CachedAnswer>({
    maxEntries: CACHE_ENTRIES,
    maxWeight: CACHE_BYTES,
    weigh: (answer) => answer.body.length,
  })

  async function answer(query: ClientFeaturesQuery): Promise<CachedAnswer> {
    const scope = scopeKey(query)
    const cached = cache.get(scope)
    if (cached && cached.revision === (await readRevision(ctx.db))) return cached
    const { revision, payload } = await readClientFeaturesSnapshot(ctx.db, query)
    const body = JSON.stringify(payload)
    const fresh = { revision, body, etag: etagOf(body) }
    // A slower reader of an older snapshot does not replace a newer answer.
    const latest = cache.get(scope)
    if (!latest || latest.revision <= revision) cache.set(scope, fresh)
    return fresh
  }

  api.get(
    '/api/client/features',
    'client',
    eventHandler(async (event) => sendWithEtag(event, await answer(clientQuery(event)))),
  )

  api.get(
    '/api/client/features/:featureName',
    'client',
    eventHandler(async (event) => {
      const name = param(event, 'featureName')
      const payload = await readClientFeatures(ctx.db, clientQuery(event))
      const feature = payload.features.find((candidate) => candidate.name === name)
      if (!feature) throw notFound(`Feature "${name}"`)
      return feature
    }),
  )
}

// --- Internal helpers ---

function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
}

function sendWithEtag(event: H3Event, { body, etag }: CachedAnswer): string | null {
  setResponseHeader(event, 'etag', etag)
  setResponseHeader(event, 'cache-control', 'no-cache')
  if (matchesIfNoneMatch(getRequestHeader(event, 'if-none-match'), etag)) {
    setResponseStatus(event, 304)
    return null
  }
  setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
  return body
}

// `/api/client/features` keeps each scope's answer (body and ETag) at the revision it was read
// at (issue 14, item 3). An unchanged poll costs one revision query; a change of anything the
// payload is made of, through either of two instances on one database or by an action, is
// never answered from the cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/database.js'
import { createPgliteDatabase } from '../src/db/pglite.js'
import { type ClientFeaturesQuery, readClientFeatures } from '../src/store/client-features.js'
import { createFlag, startTestService, type TestService } from './helpers/service.js'
import { createSignalEndpoint, sendSignal, type TestEndpoint, waitFor } from './helpers/signals.js'

/** The database, with every statement it is sent written to `log`. */
function recordingDatabase(db: Database): { db: Database; log: string[] } {
  const log: string[] = []
  const recording: Database = {
    driver: db.driver,
    query: (sql, params) => {
      log.push(sql)
      return db.query(sql, params)
    },
    transaction: (fn) => {
      log.push('BEGIN')
      return db.transaction((tx) => fn({ query: (sql, params) => (log.push(sql), tx.query(sql, params)) }))
    },
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    close: () => db.close(),
  }
  return { db: recording, log }
}

const { db, log } = recordingDatabase(await createPgliteDatabase())
let service: TestService
let other: TestService
let endpoint: TestEndpoint
const ids: { segment: number; strategy: string } = { segment: 0, strategy: '' }
const tokens: Record<string, string> = {}

const FEATURE = (flag: string, project = 'default') => `/api/admin/projects/${project}/features/${flag}`
const STRATEGIES = (flag: string, project = 'default') =>
  `${FEATURE(flag, project)}/environments/development/strategies`

/** Each scope: a token and query filters, and the same as the store reads it. */
const SCOPES: { label: string; token: string; query: string; read: ClientFeaturesQuery }[] = [
  { label: 'every project', token: 'all', query: '', read: { environment: 'development' } },
  {
    label: 'a project-scoped token',
    token: 'shop',
    query: '',
    read: { environment: 'development', projects: ['shop'] },
  },
  {
    label: 'namePrefix',
    token: 'all',
    query: '?namePrefix=al',
    read: { environment: 'development', namePrefix: 'al' },
  },
  {
    label: 'tag',
    token: 'all',
    query: '?tag=simple:blue',
    read: { environment: 'development', tags: [{ type: 'simple', value: 'blue' }] },
  },
  {
    label: 'two projects',
    token: 'all',
    query: '?project=shop,default',
    read: { environment: 'development', projects: ['shop', 'default'] },
  },
]

async function admin(method: string, path: string, body?: unknown, through = service): Promise<any> {
  const response = await through.api(method, path, body === undefined ? {} : { body })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body
}

const poll = (scope: (typeof SCOPES)[number], etag?: string) =>
  service.api('GET', `/api/client/features${scope.query}`, {
    token: tokens[scope.token] as string,
    headers: etag ? { 'if-none-match': etag } : {},
  })

beforeAll(async () => {
  service = await startTestService({ db, actionRunner: { sweepIntervalMs: 60_000 } })
  other = await startTestService({ db, actionRunner: false })
  await admin('POST', '/api/admin/projects', { id: 'shop', name: 'Shop' })
  ids.segment = (
    await admin('POST', '/api/admin/segments', {
      name: 'pro',
      constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
    })
  ).id
  await createFlag(service, 'default', 'alpha', { tags: [{ type: 'simple', value: 'blue' }] })
  await createFlag(service, 'default', 'beta')
  await createFlag(service, 'shop', 'cart')
  ids.strategy = (
    await admin('POST', STRATEGIES('alpha'), {
      name: 'flexibleRollout',
      parameters: { rollout: '50' },
      segments: [ids.segment],
    })
  ).id
  await admin('POST', STRATEGIES('cart', 'shop'), { name: 'default' })
  await admin('POST', `${FEATURE('alpha')}/environments/development/on`)
  await admin('POST', `${FEATURE('cart', 'shop')}/environments/development/on`)
  endpoint = await createSignalEndpoint(service, 'incidents')
  await admin('POST', '/api/admin/projects/default/actions', {
    name: 'beta on incident',
    match: { source: 'signal-endpoint', sourceId: endpoint.id, payload: {} },
    actions: [
      {
        action: 'TOGGLE_FEATURE_ON',
        sortOrder: 1,
        executionParams: { project: 'default', environment: 'development', featureName: 'beta' },
      },
    ],
  })
  tokens.all = await service.clientToken('development')
  tokens.shop = await service.clientToken('development', ['shop'])
})
afterAll(async () => {
  await other?.close()
  await service?.close()
  await db.close()
})

describe('an unchanged poll', () => {
  it('is 304 with the same ETag, from one revision query: no snapshot, no flag read, no hash', async () => {
    const scope = SCOPES[0] as (typeof SCOPES)[number]
    const first = await poll(scope)
    const etag = first.headers.get('etag') as string
    await poll(scope) // the token's seen_at write (throttled) is behind us
    log.length = 0
    const again = await poll(scope, etag)
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(log.filter((sql) => /FROM revision/.test(sql))).toHaveLength(1)
    expect(log.filter((sql) => sql === 'BEGIN' || /features|strategies|segments/.test(sql))).toEqual([])
    expect(log).toHaveLength(2) // the token lookup and the revision
  })

  it.each(SCOPES)('for $label gets the same bytes again, those of an uncached read', async (scope) => {
    const first = await poll(scope)
    const second = await poll(scope)
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(second.body).toEqual(first.body)
    expect(first.body).toEqual(JSON.parse(JSON.stringify(await readClientFeatures(db, scope.read))))
  })

  it('scopes never share an answer', async () => {
    const etags = new Set<string>()
    for (const scope of SCOPES) etags.add((await poll(scope)).headers.get('etag') as string)
    expect(etags.size).toBe(SCOPES.length)
  })
})

/** Changes of everything the client payload is made of; they run in this order. */
const CHANGES: [string, () => Promise<unknown>][] = [
  ['a flag created', () => createFlag(service, 'default', 'also-new')],
  ['flag metadata updated', () => admin('PUT', FEATURE('alpha'), { description: 'changed' })],
  ['a flag marked stale', () => admin('POST', '/api/admin/features/alpha/stale/on')],
  [
    'a strategy added',
    () => admin('POST', STRATEGIES('alpha'), { name: 'userWithId', parameters: { userIds: 'ann' } }),
  ],
  [
    'a strategy updated',
    () =>
      admin('PUT', `${STRATEGIES('alpha')}/${ids.strategy}`, {
        name: 'flexibleRollout',
        parameters: { rollout: '75' },
        segments: [ids.segment],
      }),
  ],
  [
    'strategies reordered',
    () => admin('POST', `${STRATEGIES('alpha')}/set-sort-order`, [{ id: ids.strategy, sortOrder: 9 }]),
  ],
  [
    'variants set',
    () => admin('PUT', `${FEATURE('alpha')}/environments/development/variants`, [{ name: 'blue', weight: 0 }]),
  ],
  [
    "a used segment's constraints changed",
    () =>
      admin('PUT', `/api/admin/segments/${ids.segment}`, {
        name: 'pro',
        constraints: [{ contextName: 'plan', operator: 'IN', values: ['max'] }],
      }),
  ],
  ['a dependency added', () => admin('POST', `${FEATURE('beta')}/dependencies`, { feature: 'alpha' })],
  ['a dependency removed', () => admin('DELETE', `${FEATURE('beta')}/dependencies/alpha`)],
  ['a flag turned off', () => admin('POST', `${FEATURE('alpha')}/environments/development/off`)],
  ['a flag turned on', () => admin('POST', `${FEATURE('alpha')}/environments/development/on`)],
  ['a tag put on a flag', () => admin('POST', '/api/admin/features/beta/tags', { type: 'simple', value: 'blue' })],
  ['a tag taken off a flag', () => admin('DELETE', '/api/admin/features/alpha/tags/simple/blue')],
  ['an environment taken from a project', () => admin('DELETE', '/api/admin/projects/shop/environments/development')],
  [
    'an environment given to a project',
    () => admin('POST', '/api/admin/projects/shop/environments', { environment: 'development' }),
  ],
  ['an environment turned off', () => admin('POST', '/api/admin/environments/development/off')],
  ['an environment turned on', () => admin('POST', '/api/admin/environments/development/on')],
  ['a project updated', () => admin('PUT', '/api/admin/projects/shop', { name: 'Shop', defaultStickiness: 'userId' })],
  ['a flag cloned', () => admin('POST', `${FEATURE('alpha')}/clone`, { name: 'alpha-copy' })],
  ['a flag archived', () => admin('DELETE', FEATURE('alpha-copy'))],
  ['a flag revived', () => admin('POST', '/api/admin/archive/revive/alpha-copy')],
  [
    'a flag deleted',
    async () => {
      await admin('DELETE', FEATURE('alpha-copy'))
      await admin('DELETE', '/api/admin/archive/alpha-copy')
    },
  ],
  ['a strategy removed', () => admin('DELETE', `${STRATEGIES('alpha')}/${ids.strategy}`)],
  [
    'a flag turned on through another instance',
    () => admin('POST', `${FEATURE('beta')}/environments/development/on`, undefined, other),
  ],
  [
    'a flag turned off by an action set',
    async () => {
      await admin('POST', `${FEATURE('beta')}/environments/development/off`)
      await poll(SCOPES[0] as (typeof SCOPES)[number]) // cache the state the action changes
      const sent = await sendSignal(service, endpoint.name, endpoint.tokens[0] as string, { severity: 'high' })
      await waitFor(
        async () =>
          (await db.query<{ announced: boolean }>('SELECT announced FROM signals WHERE id = $1', [sent.body.id]))[0]
            ?.announced,
        'the signal to be handled',
      )
    },
  ],
]

describe.each(CHANGES)('after %s', (_label, change) => {
  it('every scope is answered with the new configuration, never the cached one', async () => {
    const before = await Promise.all(SCOPES.map(async (scope) => (await poll(scope)).headers.get('etag') as string))
    await change()
    for (const [i, scope] of SCOPES.entries()) {
      const truth = JSON.parse(JSON.stringify(await readClientFeatures(db, scope.read)))
      const after = await poll(scope, before[i])
      expect(after.status, scope.label).toBe(200)
      expect(after.headers.get('etag'), scope.label).not.toBe(before[i])
      expect(after.body, scope.label).toEqual(truth)
    }
  })
})

describe('the other instance', () => {
  it('has its own cache and sees changes made through the first', async () => {
    const scope = SCOPES[0] as (typeof SCOPES)[number]
    const viaOther = () => other.api('GET', '/api/client/features', { token: tokens[scope.token] as string })
    const before = await viaOther()
    await admin('PUT', FEATURE('beta'), { description: 'from the first instance' })
    const after = await viaOther()
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(after.body.features.find((f: { name: string }) => f.name === 'beta').description).toBe(
      'from the first instance',
    )
  })
})

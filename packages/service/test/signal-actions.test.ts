import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActionRunner } from '../src/actions/runner.js'
import type { Database } from '../src/db/database.js'
import { silentLogger } from '../src/logger.js'
import { createFlag, startTestService, type TestService } from './helpers/service.js'
import { createSignalEndpoint, sendSignal, type TestEndpoint, waitFor } from './helpers/signals.js'

// Issue 6, "Actions": action sets per project (ADMIN) react to signals with ordered flag
// toggles, run as a named actor, once per matching signal, in arrival order, soon after the
// signal arrives; every run is recorded and listable.

let service: TestService
const endpoints: Record<string, TestEndpoint> = {}

// The sweep is slow here on purpose: every run below must come from the wake after an insert.
beforeAll(async () => {
  service = await startTestService({
    env: { SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: '1000' },
    actionRunner: { sweepIntervalMs: 60_000 },
  })
  for (const name of ['incidents', 'deploys'])
    endpoints[name] = await createSignalEndpoint(service, name, [`${name}-bot`])
  for (const flag of ['checkout-v2', 'kill-switch', 'doomed', 'untouched', 'toggled', 'audited'])
    await createFlag(service, 'default', flag)
})
afterAll(() => service.close())

const ACTIONS = '/api/admin/projects/default/actions'
const params = (featureName: string, environment = 'development') => ({ project: 'default', environment, featureName })
const on = (featureName: string, sortOrder: number, environment?: string) => ({
  action: 'TOGGLE_FEATURE_ON',
  sortOrder,
  executionParams: params(featureName, environment),
})
const off = (featureName: string, sortOrder: number, environment?: string) => ({
  action: 'TOGGLE_FEATURE_OFF',
  sortOrder,
  executionParams: params(featureName, environment),
})

function actionSet(
  name: string,
  source: string,
  payload: Record<string, unknown>,
  actions: unknown[],
  extra: Record<string, unknown> = {},
) {
  return { name, match: { source: 'signal-endpoint', sourceId: endpoints[source]?.id, payload }, actions, ...extra }
}

async function createSet(body: unknown, path = ACTIONS): Promise<{ id: number; actorId: number }> {
  const response = await service.api('POST', path, { body })
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return response.body
}

async function signal(source: string, payload: object): Promise<number> {
  const endpoint = endpoints[source] as TestEndpoint
  const response = await sendSignal(service, endpoint.name, endpoint.tokens[0] as string, payload)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body.id
}

const announced = (db: Database, id: number) =>
  waitFor(
    async () =>
      (await db.query<{ announced: boolean }>('SELECT announced FROM signals WHERE id = $1', [id]))[0]?.announced,
    `signal ${id} to be handled`,
  )

const runs = async (setId: number) =>
  (await service.api('GET', `${ACTIONS}/${setId}/events?limit=100`)).body.actionSetEvents as any[]

const enabledIn = async (flag: string, environment = 'development') =>
  (await service.api('GET', `/api/admin/projects/default/features/${flag}/environments/${environment}`)).body
    .enabled as boolean

describe('action sets: the API', () => {
  let setId = 0
  it('lists none, then creates one: 201, Location, the set run by the signal-actions service account', async () => {
    expect((await service.api('GET', ACTIONS)).body).toEqual({ actions: [] })
    const response = await service.api('POST', ACTIONS, {
      body: actionSet(
        'page on high',
        'incidents',
        { 'data.severity': { operator: 'IN', values: ['high'] } },
        [off('checkout-v2', 1, 'production')],
        { description: 'Kill checkout' },
      ),
    })
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    setId = response.body.id
    expect(response.headers.get('location')).toBe(`projects/default/actions/${setId}`)
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'page on high',
      description: 'Kill checkout',
      enabled: true,
      project: 'default',
      actorId: expect.any(Number),
      match: {
        source: 'signal-endpoint',
        sourceId: endpoints.incidents?.id,
        payload: { 'data.severity': { operator: 'IN', values: ['high'], inverted: false, caseInsensitive: false } },
      },
      actions: [
        {
          id: expect.any(Number),
          action: 'TOGGLE_FEATURE_OFF',
          sortOrder: 1,
          executionParams: params('checkout-v2', 'production'),
          createdAt: expect.any(String),
          createdByUserId: null,
        },
      ],
      createdAt: expect.any(String),
      createdByUserId: null,
    })
    const [actor] = await service.db.query<{ username: string; is_service: boolean }>(
      'SELECT username, is_service FROM users WHERE id = $1',
      [response.body.actorId],
    )
    expect(actor).toEqual({ username: 'signal-actions', is_service: true })
    // A service account is not a user: it is not listed with them (nor counted by insights).
    expect((await service.api('GET', '/api/admin/user-admin')).body.users).toEqual([])
    expect((await service.api('GET', ACTIONS)).body.actions).toEqual([response.body])
    expect((await service.api('GET', `${ACTIONS}/${setId}`)).body).toEqual(response.body)
  })

  it('reuses the service account, or takes a given one', async () => {
    const first = (await service.api('GET', `${ACTIONS}/${setId}`)).body
    const second = await createSet(
      actionSet('second', 'incidents', {}, [on('untouched', 1)], { actorId: first.actorId }),
    )
    const third = await createSet(actionSet('third', 'incidents', {}, [on('untouched', 1)]))
    expect([second.actorId, third.actorId]).toEqual([first.actorId, first.actorId])
    for (const id of [second.id, third.id]) expect((await service.api('DELETE', `${ACTIONS}/${id}`)).status).toBe(200)
  })

  const invalid: [string, () => unknown, number, string][] = [
    ['no name', () => ({ ...actionSet('x', 'incidents', {}, [on('untouched', 1)]), name: '' }), 400, 'body.name'],
    [
      'another source',
      () => ({
        ...actionSet('x', 'incidents', {}, [on('untouched', 1)]),
        match: { source: 'webhook', sourceId: 1, payload: {} },
      }),
      400,
      'body.match.source',
    ],
    [
      'an unknown operator',
      () => actionSet('x', 'incidents', { 'data.a': { operator: 'LIKE', values: ['x'] } }, [on('untouched', 1)]),
      400,
      'body.match.payload.data.a.operator',
    ],
    [
      'a date operator',
      () =>
        actionSet('x', 'incidents', { 'data.a': { operator: 'DATE_AFTER', value: '2024-01-01T00:00:00Z' } }, [
          on('untouched', 1),
        ]),
      400,
      'body.match.payload.data.a.operator',
    ],
    [
      'a number operator without value',
      () => actionSet('x', 'incidents', { 'data.a': { operator: 'NUM_GT' } }, [on('untouched', 1)]),
      400,
      'body.match.payload.data.a.value',
    ],
    [
      'an empty path',
      () => actionSet('x', 'incidents', { '': { operator: 'IN', values: ['x'] } }, [on('untouched', 1)]),
      400,
      'body.match.payload',
    ],
    ['no actions', () => actionSet('x', 'incidents', {}, []), 400, 'body.actions'],
    [
      'an unknown action',
      () =>
        actionSet('x', 'incidents', {}, [
          { action: 'DELETE_FEATURE', sortOrder: 1, executionParams: params('untouched') },
        ]),
      400,
      'body.actions.0.action',
    ],
    [
      'no featureName',
      () =>
        actionSet('x', 'incidents', {}, [
          {
            action: 'TOGGLE_FEATURE_ON',
            sortOrder: 1,
            executionParams: { project: 'default', environment: 'development' },
          },
        ]),
      400,
      'body.actions.0.executionParams.featureName',
    ],
    [
      'a flag of another project',
      () =>
        actionSet('x', 'incidents', {}, [
          {
            action: 'TOGGLE_FEATURE_ON',
            sortOrder: 1,
            executionParams: { ...params('untouched'), project: 'elsewhere' },
          },
        ]),
      400,
      'body.actions.0.executionParams.project',
    ],
    [
      'an actor that is not a service account',
      () => actionSet('x', 'incidents', {}, [on('untouched', 1)], { actorId: 999 }),
      400,
      'body.actorId',
    ],
    [
      'an unknown endpoint',
      () => ({
        ...actionSet('x', 'incidents', {}, [on('untouched', 1)]),
        match: { source: 'signal-endpoint', sourceId: 999, payload: {} },
      }),
      404,
      'Signal endpoint 999',
    ],
    ['an unknown flag', () => actionSet('x', 'incidents', {}, [on('no-such-flag', 1)]), 404, 'no-such-flag'],
    [
      'an environment not in the project',
      () => actionSet('x', 'incidents', {}, [on('untouched', 1, 'staging')]),
      404,
      'staging',
    ],
    [
      'a name taken in the project',
      () => actionSet('page on high', 'incidents', {}, [on('untouched', 1)]),
      409,
      'page on high',
    ],
  ]
  it.each(invalid)('refuses %s', async (_label, body, status, mentioned) => {
    const response = await service.api('POST', ACTIONS, { body: body() })
    expect(response.status, JSON.stringify(response.body)).toBe(status)
    expect(response.body.message).toContain(mentioned)
  })

  it('404 for an unknown project or action set, 403 without ADMIN', async () => {
    expect((await service.api('GET', '/api/admin/projects/nope/actions')).status).toBe(404)
    expect(
      (
        await service.api('POST', '/api/admin/projects/nope/actions', {
          body: actionSet('x', 'incidents', {}, [on('untouched', 1)]),
        })
      ).status,
    ).toBe(404)
    expect((await service.api('GET', `${ACTIONS}/999`)).status).toBe(404)
    expect((await service.api('GET', `${ACTIONS}/999/events`)).status).toBe(404)
    expect((await service.api('GET', ACTIONS, { token: await service.clientToken() })).status).toBe(403)
  })

  it('updates, disables and enables a set; deletes it', async () => {
    const made = await createSet(actionSet('temporary', 'incidents', {}, [on('untouched', 1)]))
    const updated = await service.api('PUT', `${ACTIONS}/${made.id}`, {
      body: actionSet(
        'renamed',
        'deploys',
        { type: { operator: 'STR_STARTS_WITH', values: ['DEP'], caseInsensitive: true } },
        [off('untouched', 2), on('untouched', 1)],
      ),
    })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect(updated.body).toMatchObject({
      id: made.id,
      name: 'renamed',
      actorId: made.actorId,
      match: { sourceId: endpoints.deploys?.id },
      actions: [
        { action: 'TOGGLE_FEATURE_ON', sortOrder: 1 },
        { action: 'TOGGLE_FEATURE_OFF', sortOrder: 2 },
      ],
    })
    expect((await service.api('POST', `${ACTIONS}/${made.id}/off`)).body).toMatchObject({ enabled: false })
    expect((await service.api('POST', `${ACTIONS}/${made.id}/on`)).body).toMatchObject({ enabled: true })
    expect(
      (
        await service.api('PUT', `${ACTIONS}/${made.id}`, {
          body: actionSet('page on high', 'incidents', {}, [on('untouched', 1)]),
        })
      ).status,
    ).toBe(409)
    expect(
      (await service.api('PUT', `${ACTIONS}/999`, { body: actionSet('x', 'incidents', {}, [on('untouched', 1)]) }))
        .status,
    ).toBe(404)
    expect((await service.api('DELETE', `${ACTIONS}/${made.id}`)).status).toBe(200)
    expect((await service.api('DELETE', `${ACTIONS}/${made.id}`)).status).toBe(404)
    const types = (await service.api('GET', '/api/admin/events?project=default&limit=100')).body.events.map(
      (e: { type: string }) => e.type,
    )
    expect(types).toEqual(expect.arrayContaining(['actions-created', 'actions-updated', 'actions-deleted']))
  })

  it('an endpoint that action sets listen to cannot be deleted (409)', async () => {
    const response = await service.api('DELETE', `/api/admin/signal-endpoints/${endpoints.incidents?.id}`)
    expect(response.status).toBe(409)
    expect(response.body.message).toContain('page on high')
  })

  it('limits: 5 filters, 25 values per filter, 10 actions, 5 sets per project (400 ExceedsLimitError)', async () => {
    await service.api('POST', '/api/admin/projects', { body: { id: 'crowded', name: 'Crowded' } })
    await createFlag(service, 'crowded', 'crowded-flag')
    const path = '/api/admin/projects/crowded/actions'
    const act = [
      {
        action: 'TOGGLE_FEATURE_ON',
        sortOrder: 1,
        executionParams: { project: 'crowded', environment: 'development', featureName: 'crowded-flag' },
      },
    ]
    const filters = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { operator: 'IN', values: ['x'] }]))
    const expectLimit = async (body: unknown, limit: number) => {
      const response = await service.api('POST', path, { body })
      expect(response.status, JSON.stringify(response.body)).toBe(400)
      expect(response.body).toMatchObject({
        name: 'ExceedsLimitError',
        message: expect.stringContaining(`limit of ${limit}`),
      })
    }
    await expectLimit(actionSet('too many filters', 'incidents', filters(6), act), 5)
    await expectLimit(
      actionSet(
        'too many values',
        'incidents',
        { a: { operator: 'IN', values: Array.from({ length: 26 }, (_, i) => `v${i}`) } },
        act,
      ),
      25,
    )
    await expectLimit(
      actionSet(
        'too many actions',
        'incidents',
        {},
        Array.from({ length: 11 }, (_, i) => ({ ...act[0], sortOrder: i + 1 })),
      ),
      10,
    )
    await createSet(
      actionSet(
        'at the limits',
        'incidents',
        { ...filters(5), f0: { operator: 'IN', values: Array.from({ length: 25 }, (_, i) => `v${i}`) } },
        Array.from({ length: 10 }, (_, i) => ({ ...act[0], sortOrder: i + 1 })),
      ),
      path,
    )
    for (let i = 2; i <= 5; i++) await createSet(actionSet(`set ${i}`, 'incidents', {}, act), path)
    await expectLimit(actionSet('sixth', 'incidents', {}, act), 5)
    // The limit is per project.
    expect((await service.api('GET', ACTIONS)).body.actions.length).toBeLessThan(5)
    for (const set of (await service.api('GET', path)).body.actions) await service.api('DELETE', `${path}/${set.id}`)
  })
})

describe('action sets: running on signals', () => {
  it('a matching signal runs the set soon, as the named actor; the run is recorded', async () => {
    await service.api('POST', '/api/admin/projects/default/features/checkout-v2/environments/production/on')
    const [set] = (await service.api('GET', ACTIONS)).body.actions
    const started = Date.now()
    const id = await signal('incidents', { type: 'incident', data: { severity: 'high' } })
    const [run] = await waitFor(async () => (await runs(set.id)).length > 0 && runs(set.id), 'the run')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(await enabledIn('checkout-v2', 'production')).toBe(false)
    expect(run).toEqual({
      id: expect.any(Number),
      actionSetId: set.id,
      signalId: id,
      createdAt: expect.any(String),
      state: 'success',
      signal: expect.objectContaining({
        id,
        sourceId: endpoints.incidents?.id,
        payload: { type: 'incident', data: { severity: 'high' } },
        tokenName: 'incidents-bot',
      }),
      actionSet: expect.objectContaining({
        id: set.id,
        name: 'page on high',
        actions: [expect.objectContaining({ action: 'TOGGLE_FEATURE_OFF', state: 'success' })],
      }),
    })
    const { events } = (
      await service.api('GET', '/api/admin/events?feature=checkout-v2&type=feature-environment-disabled')
    ).body
    expect(events).toEqual([
      expect.objectContaining({
        createdBy: 'action-set:page on high',
        createdByUserId: set.actorId,
        environment: 'production',
        origin: { actionSetId: set.id, signalId: id, signalEndpointId: endpoints.incidents?.id },
      }),
    ])
  })

  it('a signal that does not match, or comes from another endpoint, runs nothing', async () => {
    const [set] = (await service.api('GET', ACTIONS)).body.actions
    const before = (await runs(set.id)).length
    await announced(service.db, await signal('incidents', { data: { severity: 'low' } }))
    await announced(service.db, await signal('deploys', { data: { severity: 'high' } }))
    expect(await runs(set.id)).toHaveLength(before)
  })

  it('actions run in sortOrder and stop at the first failure, which is recorded with its reason', async () => {
    for (const flag of ['kill-switch', 'doomed'])
      await service.api('POST', `/api/admin/projects/default/features/${flag}/environments/development/on`)
    const set = await createSet(
      actionSet('chain', 'incidents', { type: { operator: 'IN', values: ['chain'] } }, [
        on('untouched', 3),
        off('kill-switch', 1),
        off('doomed', 2),
      ]),
    )
    expect((await service.api('DELETE', '/api/admin/projects/default/features/doomed')).status).toBe(202)
    await announced(service.db, await signal('incidents', { type: 'chain' }))
    const [run] = await runs(set.id)
    expect(run.state).toBe('failed')
    expect(run.actionSet.actions).toEqual([
      expect.objectContaining({ sortOrder: 1, executionParams: params('kill-switch'), state: 'success' }),
      expect.objectContaining({ sortOrder: 2, state: 'failed', details: expect.stringContaining('doomed') }),
      expect.objectContaining({ sortOrder: 3, state: 'not started' }),
    ])
    expect(await enabledIn('kill-switch')).toBe(false)
    expect(await enabledIn('untouched')).toBe(false)
    await service.api('DELETE', `${ACTIONS}/${set.id}`)
  })

  it('each matching set runs once per signal, in arrival order; disabled sets do not run', async () => {
    const flip = await createSet(
      actionSet('flip on', 'deploys', { 'data.state': { operator: 'IN', values: ['on'] } }, [on('toggled', 1)]),
    )
    const flop = await createSet(
      actionSet('flip off', 'deploys', { 'data.state': { operator: 'IN', values: ['off'] } }, [off('toggled', 1)]),
    )
    const audit = await createSet(actionSet('every deploy', 'deploys', {}, [on('audited', 1)]))
    const states = ['on', 'off', 'on', 'off', 'on']
    const ids: number[] = []
    for (const state of states) ids.push(await signal('deploys', { data: { state } }))
    await announced(service.db, ids.at(-1) as number)
    const signalIds = async (setId: number) => (await runs(setId)).map((r) => r.signalId).reverse()
    expect(await signalIds(audit.id)).toEqual(ids)
    expect(await signalIds(flip.id)).toEqual([ids[0], ids[2], ids[4]])
    expect(await signalIds(flop.id)).toEqual([ids[1], ids[3]])
    const history = (
      await service.api('GET', '/api/admin/events?feature=toggled&environment=development&limit=100')
    ).body.events
      .filter((e: { type: string }) => e.type.startsWith('feature-environment-'))
      .map((e: { type: string }) => e.type)
      .reverse()
    expect(history).toEqual(
      ['enabled', 'disabled', 'enabled', 'disabled', 'enabled'].map((s) => `feature-environment-${s}`),
    )
    expect(await enabledIn('toggled')).toBe(true)

    await service.api('POST', `${ACTIONS}/${audit.id}/off`)
    await announced(service.db, await signal('deploys', { data: { state: 'off' } }))
    expect(await runs(audit.id)).toHaveLength(5)
    expect(await enabledIn('toggled')).toBe(false)
    for (const set of [flip, flop, audit]) await service.api('DELETE', `${ACTIONS}/${set.id}`)
  })

  it('an edited set uses its new filters at once; every update bumps its version', async () => {
    await createFlag(service, 'default', 'edited')
    const body = (values: string[]) =>
      actionSet('edited filters', 'deploys', { 'data.state': { operator: 'IN', values } }, [on('edited', 1)])
    const version = async (id: number) =>
      (await service.db.query<{ version: number }>('SELECT version FROM action_sets WHERE id = $1', [id]))[0]?.version
    const set = await createSet(body(['blue']))
    await announced(service.db, await signal('deploys', { data: { state: 'blue' } }))
    expect(await runs(set.id)).toHaveLength(1)
    expect((await service.api('PUT', `${ACTIONS}/${set.id}`, { body: body(['green']) })).status).toBe(200)
    expect(await version(set.id)).toBe(2)
    // The filters compiled for version 1 would match this one.
    await announced(service.db, await signal('deploys', { data: { state: 'blue' } }))
    expect(await runs(set.id)).toHaveLength(1)
    await announced(service.db, await signal('deploys', { data: { state: 'green' } }))
    expect(await runs(set.id)).toHaveLength(2)
    await service.api('POST', `${ACTIONS}/${set.id}/off`)
    await service.api('POST', `${ACTIONS}/${set.id}/on`)
    expect(await version(set.id)).toBe(4)
    await service.api('DELETE', `${ACTIONS}/${set.id}`)
  })

  it('a run whose actor was deleted fails with the reason; a new set gets a new service account', async () => {
    const set = await createSet(
      actionSet('orphaned', 'incidents', { type: { operator: 'IN', values: ['orphan'] } }, [on('untouched', 1)]),
    )
    // The user admin API refuses to delete a service account (personal-tokens-admin.test.ts), so
    // the account goes the only way left: straight in the database (an operator, a restore).
    expect((await service.api('DELETE', `/api/admin/user-admin/${set.actorId}`)).status).toBe(403)
    await service.db.query('UPDATE users SET deleted_at = now() WHERE id = $1', [set.actorId])
    await announced(service.db, await signal('incidents', { type: 'orphan' }))
    const [run] = await runs(set.id)
    expect(run).toMatchObject({
      state: 'failed',
      actionSet: { actions: [{ state: 'failed', details: expect.stringContaining('actor') }] },
    })
    const next = await createSet(
      actionSet('adopted', 'incidents', { type: { operator: 'IN', values: ['never'] } }, [on('untouched', 1)]),
    )
    expect(next.actorId).not.toBe(set.actorId)
  })
})

describe('the action runner', () => {
  it('handles signals queued before it started, and finds new ones on its sweep', async () => {
    const [set] = (await service.api('GET', ACTIONS)).body.actions
    const insert = async () =>
      (
        await service.db.query<{ id: number }>(
          `INSERT INTO signals (source_id, payload, created_at) VALUES ($1, $2, now()) RETURNING id`,
          [endpoints.incidents?.id, JSON.stringify({ data: { severity: 'high' } })],
        )
      )[0]?.id as number
    const queued = await insert()
    const runner = createActionRunner({
      db: service.db,
      logger: silentLogger,
      clock: () => new Date(),
      sweepIntervalMs: 50,
    })
    try {
      await announced(service.db, queued)
      const swept = await insert()
      await announced(service.db, swept)
      const handled = (await runs(set.id)).map((r) => r.signalId)
      expect(handled).toEqual(expect.arrayContaining([queued, swept]))
    } finally {
      await runner.close()
    }
  })

  /** The service's database, except that handling a signal (its transaction) fails `failures` times. */
  const failingHandling = (failures: number): Database => {
    let left = failures
    return {
      driver: service.db.driver,
      query: (sql, params) => service.db.query(sql, params),
      transaction: (fn) =>
        service.db.transaction((tx) =>
          fn({
            query: (sql, params) => {
              if (sql.startsWith('UPDATE signals SET announced = true') && left > 0) {
                left--
                return Promise.reject(new Error('the connection was lost'))
              }
              return tx.query(sql, params)
            },
          }),
        ),
      listen: (channel, onNotify) => service.db.listen(channel, onNotify),
      close: async () => {},
    }
  }
  const insertSignal = async () =>
    (
      await service.db.query<{ id: number }>(
        `INSERT INTO signals (source_id, payload, created_at) VALUES ($1, $2, now()) RETURNING id`,
        [endpoints.incidents?.id, JSON.stringify({ data: { severity: 'high' } })],
      )
    )[0]?.id as number
  const signalRow = async (id: number) =>
    (
      await service.db.query<{ announced: boolean; attempts: number; failure: string | null }>(
        'SELECT announced, attempts, failure FROM signals WHERE id = $1',
        [id],
      )
    )[0]

  it('retries a signal whose handling fails as a whole, and its actions run once it succeeds', async () => {
    const [set] = (await service.api('GET', ACTIONS)).body.actions
    const id = await insertSignal()
    const runner = createActionRunner({
      db: failingHandling(2),
      logger: silentLogger,
      clock: () => new Date(),
      sweepIntervalMs: 20,
    })
    try {
      await announced(service.db, id)
      expect(await signalRow(id)).toEqual({ announced: true, attempts: 2, failure: null })
      expect((await runs(set.id)).filter((run) => run.signalId === id)).toHaveLength(1)
    } finally {
      await runner.close()
    }
  })

  it('gives up on a signal after three failed attempts and records why, and the queue goes on', async () => {
    const [set] = (await service.api('GET', ACTIONS)).body.actions
    const stuck = await insertSignal()
    const next = await insertSignal()
    const runner = createActionRunner({
      db: failingHandling(3),
      logger: silentLogger,
      clock: () => new Date(),
      sweepIntervalMs: 20,
    })
    try {
      await announced(service.db, next)
      expect(await signalRow(stuck)).toEqual({ announced: true, attempts: 3, failure: 'the connection was lost' })
      const handled = (await runs(set.id)).map((run) => run.signalId)
      expect(handled).toContain(next)
      expect(handled).not.toContain(stuck)
    } finally {
      await runner.close()
    }
  })

  it('stops cleanly on close(): the cycle in flight finishes, then no timer fires and no query runs', async () => {
    const queries: string[] = []
    let closed = false
    const afterClose: string[] = []
    const db: Database = {
      driver: service.db.driver,
      query: (sql, params) => {
        ;(closed ? afterClose : queries).push(sql)
        return service.db.query(sql, params)
      },
      transaction: (fn) =>
        service.db.transaction((tx) =>
          fn({
            query: (sql, params) => {
              ;(closed ? afterClose : queries).push(sql)
              return tx.query(sql, params)
            },
          }),
        ),
      listen: (channel, onNotify) => service.db.listen(channel, onNotify),
      close: async () => {},
    }
    const runner = createActionRunner({ db, logger: silentLogger, clock: () => new Date(), sweepIntervalMs: 10 })
    runner.wake()
    await runner.close()
    closed = true
    runner.wake()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(queries.length).toBeGreaterThan(0)
    expect(afterClose).toEqual([])
  })
})

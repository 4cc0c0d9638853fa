// What the fuzz may name and break: a project with flags, a strategy, a segment, a tag, a user, a
// personal and an API token, a signal endpoint with tokens and an action set. Path parameters
// name these, so hostile bodies get past the 404s into the handlers' writes; the fuzz deletes and
// renames them as it goes, and `replenish` puts back whatever is gone between batches.
import type { TestService } from './service.js'
import type { FuzzCredential } from './fuzz-world.js'

export interface Playground {
  project: string
  environment: string
  flag: string
  parent: string
  archived: string
  tagType: string
  tagValue: string
  strategyId: string
  segmentId: number
  userId: number
  /** A personal token of the viewer credential's user (not the one it calls with). */
  patId: number
  apiTokenId: number
  endpointId: number
  endpointName: string
  /** A token of the endpoint other than the signal credential's. */
  signalTokenId: number
  actionSetId: number
}

export function createPlayground(): Playground {
  return {
    project: 'pg',
    environment: 'pg-env',
    flag: 'pg-flag',
    parent: 'pg-parent',
    archived: 'pg-archived',
    tagType: 'pg-tags',
    tagValue: 'pg-value',
    strategyId: 'none-yet',
    segmentId: 0,
    userId: 0,
    patId: 0,
    apiTokenId: 0,
    endpointId: 0,
    endpointName: '',
    signalTokenId: 0,
    actionSetId: 0,
  }
}

/**
 * Re-creates what the fuzz deleted, archived or turned off; `n` keeps new names unique. The
 * signal credential is re-issued when its token or endpoint is gone.
 */
export async function replenish(
  service: TestService,
  pg: Playground,
  credentials: FuzzCredential[],
  n: number,
): Promise<void> {
  const call = caller(service)
  const missing = async (path: string) => (await call('GET', path)).status === 404

  if (await missing(`/api/admin/environments/${pg.environment}`))
    await call('POST', '/api/admin/environments', { name: pg.environment, type: 'development' })
  await call('POST', `/api/admin/environments/${pg.environment}/on`)
  if (await missing(`/api/admin/projects/${pg.project}`))
    await call('POST', '/api/admin/projects', { id: pg.project, name: 'Playground', environments: [pg.environment] })
  await call('POST', `/api/admin/projects/${pg.project}/environments`, { environment: pg.environment })
  if (await missing(`/api/admin/tag-types/${pg.tagType}`))
    await call('POST', '/api/admin/tag-types', { name: pg.tagType })

  for (const flag of [pg.parent, pg.flag, pg.archived]) {
    if (!(await missing(`/api/admin/projects/${pg.project}/features/${flag}`))) continue
    if ((await call('POST', `/api/admin/archive/revive/${flag}`)).status === 404)
      await call('POST', `/api/admin/projects/${pg.project}/features`, { name: flag })
  }
  await call('DELETE', `/api/admin/projects/${pg.project}/features/${pg.archived}`)
  await call('POST', `/api/admin/features/${pg.flag}/tags`, { type: pg.tagType, value: pg.tagValue })
  await call('POST', `/api/admin/projects/${pg.project}/features/${pg.flag}/dependencies`, { feature: pg.parent })

  if (await missing(`/api/admin/segments/${pg.segmentId}`)) {
    const body = { name: `pg-segment-${n}`, constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] }
    pg.segmentId = (await call('POST', '/api/admin/segments', body)).body.id
  }
  const strategies = `/api/admin/projects/${pg.project}/features/${pg.flag}/environments/${pg.environment}/strategies`
  const listed = (await call('GET', strategies)).body
  pg.strategyId =
    Array.isArray(listed) && listed[0] ? listed[0].id : (await call('POST', strategies, strategy(pg.segmentId))).body.id

  if (await missing(`/api/admin/user-admin/${pg.userId}`))
    pg.userId = (
      await call('POST', '/api/admin/user-admin', { email: `pg-user-${n}@example.com`, rootRole: 'Viewer' })
    ).body.id
  const viewer = credentials.find((c) => c.label === 'viewer personal token')?.secret as string
  const pats: { id: number }[] = (await call('GET', '/api/admin/user/tokens', undefined, viewer)).body.pats
  if (!pats.some((pat) => pat.id === pg.patId))
    pg.patId = (await call('POST', '/api/admin/user/tokens', { description: `pg-${n}` }, viewer)).body.id
  const tokens: { id: number }[] = (await call('GET', '/api/admin/api-tokens')).body.tokens
  if (!tokens.some((token) => token.id === pg.apiTokenId)) {
    pg.apiTokenId = (
      await call('POST', '/api/admin/api-tokens', {
        tokenName: `pg-token-${n}`,
        type: 'client',
        environment: pg.environment,
      })
    ).body.id
  }

  await replenishSignals(service, pg, credentials, n)
}

/** The signal endpoint (enabled, under its current name), its tokens and its action set. */
export async function replenishSignals(
  service: TestService,
  pg: Playground,
  credentials: FuzzCredential[],
  n: number,
): Promise<void> {
  const call = caller(service)
  const base = '/api/admin/signal-endpoints'
  const endpoints: { id: number; name: string }[] = (await call('GET', base)).body.signalEndpoints
  const endpoint =
    endpoints.find((e) => e.id === pg.endpointId) ?? (await call('POST', base, { name: `pg-endpoint-${n}` })).body
  pg.endpointId = endpoint.id
  pg.endpointName = endpoint.name
  await call('POST', `${base}/${pg.endpointId}/on`)
  const tokens: { id: number; name: string }[] = (await call('GET', `${base}/${pg.endpointId}/tokens`)).body
    .signalEndpointTokens
  const signal = credentials.find((c) => c.label === 'signal token') as FuzzCredential
  if (!tokens.some((token) => token.name === 'pg-credential') || !signal.secret) {
    const secret = (await call('POST', `${base}/${pg.endpointId}/tokens`, { name: 'pg-credential' })).body
      .token as string
    signal.secret = secret
    signal.header = `Bearer ${secret}`
  }
  if (!tokens.some((token) => token.id === pg.signalTokenId))
    pg.signalTokenId = (await call('POST', `${base}/${pg.endpointId}/tokens`, { name: `pg-spare-${n}` })).body.id

  const actions = `/api/admin/projects/${pg.project}/actions`
  if ((await call('GET', `${actions}/${pg.actionSetId}`)).status === 404) {
    const executionParams = { project: pg.project, environment: pg.environment, featureName: pg.flag }
    const body = {
      name: `pg-actions-${n}`,
      match: { source: 'signal-endpoint', sourceId: pg.endpointId, payload: {} },
      actions: [{ action: 'TOGGLE_FEATURE_ON', executionParams }],
    }
    pg.actionSetId = (await call('POST', actions, body)).body.id
  }
}

/** Admin calls whose answers are looked at; a 5xx or a refused credential stops the run. */
function caller(service: TestService) {
  return async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await service.api(method, path, {
      ...(body === undefined ? {} : { body }),
      ...(token ? { token } : {}),
    })
    if (response.status >= 500 || response.status === 401)
      throw new Error(`replenish: ${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
    return response
  }
}

/** A strategy using every part of the schema, as the fuzz's bodies start from. */
export function strategy(segmentId: number | string) {
  return {
    name: 'flexibleRollout',
    title: 'pg',
    disabled: false,
    sortOrder: 1,
    constraints: [
      { contextName: 'userId', operator: 'IN', values: ['a', 'b'] },
      { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00.000Z' },
      { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3', inverted: true, caseInsensitive: false },
    ],
    parameters: { rollout: '50', stickiness: 'default', groupId: 'pg' },
    variants: [
      {
        name: 'v1',
        weight: 1000,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'string', value: 'x' },
      },
    ],
    segments: [segmentId],
  }
}

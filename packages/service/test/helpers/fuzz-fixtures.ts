// State created before the fuzz, which it must leave intact: a project in its own environment,
// flags with strategies, constraints, variants, a segment, a tag and a dependency, an archived
// flag, a user with a personal token, API tokens, a signal endpoint with a token and an action set.
//
// The fuzz calls with admin credentials too, so "intact" has to mean "untouched by anything the
// fuzz could name", not "untouched by an admin": every fixture name carries a random suffix and
// every id is above the fuzz's numbers (fuzz-world.ts), and a fixture depends on nothing the fuzz
// may name (its own environment, tag type and segment). A fixture that changes anyway was reached
// through a path the fuzz did not name: a routing, scoping or cascade bug.
import { randomBytes } from 'node:crypto'
import type { TestService } from './service.js'
import { ok } from './fuzz-world.js'
import { strategy } from './fuzz-playground.js'

export interface Fixtures {
  /** In every fixture name, and in no request the fuzz sends: an answer holding it shows fixture data. */
  suffix: string
  project: string
  environment: string
  flags: string[]
  archived: string
  tagType: string
  segmentId: number
  userId: number
  /** Fixture credentials, read through once before each snapshot (see `snapshotFixtures`). */
  pat: string
  clientToken: string
  apiTokenIds: number[]
  endpointId: number
}

export async function createFixtures(service: TestService): Promise<Fixtures> {
  const suffix = randomBytes(6).toString('hex')
  const [project, environment, tagType] = [`fx-${suffix}`, `fx-env-${suffix}`, `fx-tags-${suffix}`]
  const [flagA, flagB, archived] = [`fx-a-${suffix}`, `fx-b-${suffix}`, `fx-archived-${suffix}`]
  const post = (path: string, body: unknown, token?: string) => ok(service, 'POST', path, body, token)

  await post('/api/admin/environments', { name: environment, type: 'production' })
  await post('/api/admin/tag-types', { name: tagType, description: `fixture ${suffix}` })
  await post('/api/admin/projects', {
    id: project,
    name: `Fixture ${suffix}`,
    description: 'never named by the fuzz',
    environments: [environment],
  })
  const segment = await post('/api/admin/segments', {
    name: `fx-segment-${suffix}`,
    project,
    constraints: [{ contextName: 'region', operator: 'IN', values: [`fx-region-${suffix}`] }],
  })
  for (const name of [flagA, flagB, archived])
    await post(`/api/admin/projects/${project}/features`, {
      name,
      description: `fixture ${suffix}`,
      tags: [{ type: tagType, value: `fx-${suffix}` }],
    })
  const environmentPath = (flag: string) =>
    `/api/admin/projects/${project}/features/${flag}/environments/${environment}`
  await post(`${environmentPath(flagA)}/strategies`, {
    ...strategy(segment.id),
    parameters: { rollout: '42', stickiness: 'default', groupId: `fx-${suffix}` },
  })
  await post(`${environmentPath(flagA)}/on`, undefined)
  await ok(service, 'PUT', `/api/admin/projects/${project}/features/${flagA}/variants`, [
    { name: `fx-variant-${suffix}`, weight: 1000, payload: { type: 'json', value: '{"fx":true}' } },
  ])
  await post(`/api/admin/projects/${project}/features/${flagB}/dependencies`, { feature: flagA, enabled: true })
  await ok(service, 'DELETE', `/api/admin/projects/${project}/features/${archived}`)

  const user = await post('/api/admin/user-admin', {
    name: `Fixture ${suffix}`,
    email: `fx-${suffix}@example.com`,
    rootRole: 'Editor',
  })
  const pat = (
    await post(`/api/admin/user-admin/${user.id}/tokens`, {
      description: `fx-${suffix}`,
      expiresAt: '2099-01-01T00:00:00.000Z',
    })
  ).secret
  const client = await post('/api/admin/api-tokens', {
    tokenName: `fx-client-${suffix}`,
    type: 'client',
    environment,
    projects: [project],
  })
  const admin = await post('/api/admin/api-tokens', {
    tokenName: `fx-admin-${suffix}`,
    type: 'admin',
    expiresAt: '2099-01-01T00:00:00.000Z',
  })
  const frontend = await post('/api/admin/api-tokens', {
    tokenName: `fx-frontend-${suffix}`,
    type: 'frontend',
    environment,
    projects: [project],
  })

  const endpoint = await post('/api/admin/signal-endpoints', {
    name: `fx-endpoint-${suffix}`,
    description: `fixture ${suffix}`,
  })
  await post(`/api/admin/signal-endpoints/${endpoint.id}/tokens`, { name: `fx-${suffix}` })
  const executionParams = { project, environment, featureName: flagA }
  const payload = { 'data.severity': { operator: 'IN', values: [`fx-${suffix}`] } }
  await post(`/api/admin/projects/${project}/actions`, {
    name: `fx-actions-${suffix}`,
    enabled: false,
    match: { source: 'signal-endpoint', sourceId: endpoint.id, payload },
    actions: [{ action: 'TOGGLE_FEATURE_OFF', executionParams }],
  })

  return {
    suffix,
    project,
    environment,
    flags: [flagA, flagB],
    archived,
    tagType,
    segmentId: segment.id,
    userId: user.id,
    pat,
    clientToken: client.secret,
    apiTokenIds: [client.id, admin.id, frontend.id],
    endpointId: endpoint.id,
  }
}

/**
 * Every fixture as the API shows it: what its own credentials read, then the admin GETs. Reading
 * through a fixture credential marks it seen once an hour (fuzz-world.ts), so call this once to
 * mark them before taking the snapshot that is compared.
 */
export async function snapshotFixtures(service: TestService, fx: Fixtures): Promise<Record<string, unknown>> {
  const snapshot: Record<string, unknown> = {}
  const read = async (path: string, token?: string, pick: (body: any) => unknown = (body) => body) => {
    const response = await service.api('GET', path, token ? { token } : {})
    snapshot[`${token ? 'fixture credential' : 'admin'}: GET ${path}`] = {
      status: response.status,
      body: pick(response.body),
    }
  }
  // The revision is the instance's latest event id (Unleash's meta.revisionId): every change moves it.
  await read('/api/client/features', fx.clientToken, ({ meta: _revision, ...body }) => body)
  await read('/api/admin/user/tokens', fx.pat)

  const projectPath = `/api/admin/projects/${fx.project}`
  for (const path of [
    projectPath,
    `${projectPath}/features`,
    `${projectPath}/actions`,
    `/api/admin/archive/features/${fx.project}`,
  ])
    await read(path)
  for (const flag of fx.flags) {
    const flagPath = `${projectPath}/features/${flag}`
    for (const path of [
      flagPath,
      `${flagPath}/environments/${fx.environment}/strategies`,
      `${flagPath}/variants`,
      `${flagPath}/dependencies`,
      `/api/admin/features/${flag}/tags`,
    ])
      await read(path)
  }
  // A project created without a list of environments gets every enabled one (Unleash), the fixtures' too.
  await read(`/api/admin/environments/${fx.environment}`, undefined, ({ projectCount: _counted, ...body }) => body)
  for (const path of [`/api/admin/tag-types/${fx.tagType}`, `/api/admin/tags/${fx.tagType}`]) await read(path)
  for (const path of [
    `/api/admin/segments/${fx.segmentId}`,
    `/api/admin/segments/${fx.segmentId}/strategies`,
    `/api/admin/user-admin/${fx.userId}`,
  ])
    await read(path)
  await read('/api/admin/api-tokens', undefined, (body) =>
    body.tokens.filter((token: { id: number }) => fx.apiTokenIds.includes(token.id)),
  )
  await read('/api/admin/signal-endpoints', undefined, (body) =>
    body.signalEndpoints.filter((endpoint: { id: number }) => endpoint.id === fx.endpointId),
  )
  for (const path of [
    `/api/admin/signal-endpoints/${fx.endpointId}/tokens`,
    `/api/admin/signal-endpoints/${fx.endpointId}/signals`,
  ])
    await read(path)
  await read(`/api/admin/events?project=${fx.project}`)
  return snapshot
}

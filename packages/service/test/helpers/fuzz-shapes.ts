// The plausible body of each route, matched on its method and path: where the fuzz's mutations
// start from (fuzz-bodies.ts), so that most bodies fail one check at a time and some pass them all.
// A route no shape matches gets every shape: a new route is fuzzed with bodies as it is.
//
// Shapes name the playground through `«pg:field»` markers and make names unique with `«n»` (the
// request's number: a name an earlier request took would stop the next one at its 409).
import type { RouteSpec } from '../../src/routes/api-router.js'
import type { Playground } from './fuzz-playground.js'
import { strategy } from './fuzz-playground.js'

const pg = (field: keyof Playground) => `«pg:${field}»`
const constraint = { contextName: 'appName', operator: 'NUM_GT', value: '3', inverted: false, caseInsensitive: true }
const variant = {
  name: 'fz',
  weight: 500,
  weightType: 'fix',
  stickiness: 'default',
  payload: { type: 'json', value: '{}' },
  overrides: [{ contextName: 'userId', values: ['u1'] }],
}
const date = '2024-06-01T00:00:00.000Z'

/** `[method and path pattern, shape]`: every shape whose pattern matches the route is used for it. */
const SHAPES: [RegExp, unknown][] = [
  [
    /^POST \/api\/admin\/projects$/,
    {
      id: 'fz-project-«n»',
      name: 'Fuzz «n»',
      description: 'd',
      mode: 'open',
      defaultStickiness: 'default',
      environments: [pg('environment')],
    },
  ],
  [
    /^PUT \/api\/admin\/projects\/:projectId$/,
    { name: 'Fuzz', description: 'd', mode: 'protected', defaultStickiness: 'userId' },
  ],
  [/^POST \/api\/admin\/projects\/:projectId\/environments$/, { environment: pg('environment') }],
  [
    /^POST \/api\/admin\/projects\/:projectId\/features$/,
    {
      name: 'fz-flag-«n»',
      type: 'release',
      description: 'd',
      impressionData: true,
      tags: [{ type: pg('tagType'), value: 'fz-value' }],
    },
  ],
  [
    /^PUT .*\/features\/:featureName$/,
    { name: pg('flag'), type: 'experiment', description: 'd', impressionData: false, stale: true, archived: false },
  ],
  // JSON Patch (RFC 6902): one operation that applies to the route's document, or several that may not.
  [
    /^PATCH .*\/features\/:featureName$/,
    [
      { op: 'replace', path: '/description', value: 'x' },
      { op: 'replace', path: '/stale', value: true },
    ],
  ],
  [/^PATCH .*\/strategies\/:strategyId$/, [{ op: 'replace', path: '/parameters/rollout', value: '30' }]],
  [/^PATCH .*\/strategies\/:strategyId$/, [{ op: 'add', path: '/constraints/-', value: constraint }]],
  [/^PATCH .*\/variants$/, [{ op: 'add', path: '/-', value: variant }]],
  [
    /^PATCH /,
    [
      { op: 'copy', from: '/name', path: '/title' },
      { op: 'test', path: '/name', value: 'x' },
      { op: 'move', from: '/a', path: '/__proto__/b' },
      { op: 'remove', path: '/0' },
    ],
  ],
  [/^POST \/api\/admin\/features\/validate$/, { name: 'fz-flag-«n»' }],
  [/^(POST|PUT) .*\/strategies(\/:strategyId)?$/, strategy(pg('segmentId'))],
  [/^(PUT|POST) .*\/default-strategy$/, strategy(pg('segmentId'))],
  [
    /\/set-sort-order$/,
    [
      { id: pg('strategyId'), sortOrder: 2 },
      { id: 'x', sortOrder: -1 },
    ],
  ],
  [/^PUT .*\/variants$/, [variant, { ...variant, name: 'fz2', weightType: 'variable', weight: 0 }]],
  [/\/variants-batch$/, { variants: [variant], environments: [pg('environment')] }],
  [/^POST .*\/dependencies$/, { feature: pg('parent'), enabled: false, variants: ['v1'] }],
  [/\/projects\/:projectId\/(archive|revive|delete)$/, { features: [pg('archived'), pg('flag')] }],
  [/\/projects\/:projectId\/stale$/, { features: [pg('flag')], stale: true }],
  [/\/bulk_features\//, { features: [pg('flag'), pg('parent')] }],
  [/\/clone$/, { name: 'fz-clone-«n»', replaceGroupId: false }],
  [
    /^(POST|PUT) \/api\/admin\/segments/,
    { name: 'fz-segment-«n»', description: 'd', project: pg('project'), constraints: [constraint] },
  ],
  [/^POST \/api\/admin\/tags$/, { type: pg('tagType'), value: 'fz-tag-«n»' }],
  [/\/tag-types/, { name: 'fz-tags-«n»', description: 'd', icon: 'star' }],
  [/^POST .*\/features\/:featureName\/tags$/, { type: pg('tagType'), value: pg('tagValue') }],
  [
    /^PUT .*\/features\/:featureName\/tags$/,
    {
      addedTags: [{ type: pg('tagType'), value: 'fz-added-«n»' }],
      removedTags: [{ type: pg('tagType'), value: pg('tagValue') }],
    },
  ],
  [
    /^POST \/api\/admin\/user-admin$/,
    {
      name: 'Fuzz',
      username: 'fz-«n»',
      email: 'fz-«n»@example.com',
      rootRole: 'Editor',
      password: 'pw',
      sendEmail: false,
    },
  ],
  [/^PUT \/api\/admin\/user-admin\/:id$/, { name: 'Fuzz', email: 'fz-«n»@example.com', rootRole: 3 }],
  [/^POST .*\/tokens$/, { description: 'fz', expiresAt: '2099-01-01T00:00:00Z', name: 'fz-token' }],
  [
    /^POST \/api\/admin\/api-tokens$/,
    {
      tokenName: 'fz',
      type: 'client',
      environment: pg('environment'),
      projects: [pg('project')],
      expiresAt: '2099-01-01T00:00:00Z',
    },
  ],
  [/^PUT \/api\/admin\/api-tokens\/:token$/, { expiresAt: '2099-01-01T00:00:00Z' }],
  [/^POST \/api\/admin\/environments$/, { name: 'fz-env-«n»', type: 'development', enabled: true, sortOrder: 3 }],
  [/^PUT \/api\/admin\/environments\/update\//, { type: 'production', sortOrder: 2 }],
  [/^(POST|PUT) \/api\/admin\/signal-endpoints(\/:id)?$/, { name: 'fz-endpoint-«n»', description: 'd', enabled: true }],
  [/^PUT \/api\/admin\/signal-endpoints\/:id\/tokens\/:tokenId$/, { name: 'fz-token' }],
  [
    /^(POST|PUT) .*\/actions(\/:id)?$/,
    {
      name: 'fz-actions-«n»',
      description: 'd',
      enabled: true,
      match: {
        source: 'signal-endpoint',
        sourceId: pg('endpointId'),
        payload: {
          'data.severity': { operator: 'IN', values: ['high'] },
          'data.n': { operator: 'NUM_GT', value: '3' },
        },
      },
      actions: [
        {
          action: 'TOGGLE_FEATURE_ON',
          sortOrder: 1,
          executionParams: { project: pg('project'), environment: pg('environment'), featureName: pg('flag') },
        },
      ],
    },
  ],
  [
    /\/client\/metrics$/,
    {
      appName: 'fz-app',
      instanceId: 'i',
      environment: 'development',
      bucket: { start: date, stop: date, toggles: { [pg('flag')]: { yes: 1, no: 2, variants: { v1: 1 } } } },
    },
  ],
  [
    /\/client\/register$/,
    {
      appName: 'fz-app',
      instanceId: 'i',
      sdkVersion: 'unleash-client-node:6.0.0',
      environment: 'x',
      strategies: ['default'],
      started: date,
      interval: 15_000,
    },
  ],
  [
    /^POST \/api\/admin\/playground\/contexts$/,
    { context: { userId: 'fz-«n»', sessionId: 's', remoteAddress: '10.0.0.1', properties: { plan: 'pro' } } },
  ],
  [/\/signal-endpoint\/:name$/, { data: { severity: 'high', n: 4 }, tags: ['a'] }],
]

/** The shapes for `route` (any shape when none matches). */
export function shapesFor(route: RouteSpec): unknown[] {
  const matching = SHAPES.filter(([pattern]) => pattern.test(`${route.method} ${route.path}`)).map(([, shape]) => shape)
  return matching.length > 0 ? matching : SHAPES.map(([, shape]) => shape)
}

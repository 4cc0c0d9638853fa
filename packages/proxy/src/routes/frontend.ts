// The frontend API's routes for frontend tokens (docs/edge-compatibility.md), under both of Edge's
// prefixes (/api/frontend and its /api/proxy alias): the evaluations (protocols/frontend-api.ts,
// through the answer pipeline; /all unless DISABLE_ALL_ENDPOINT, /features/<name>) with Unleash
// 8.2's CORS headers, and the metrics and registrations its SDKs post.
import { answerPipeline, type PipelineOptions } from '../answers/pipeline.js'
import type { VisibilityConfig } from '../evaluation/visibility.js'
import { frontendDialect, type FrontendSelection } from '../protocols/frontend-api.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import { flagNameOf } from '../routing/route-path.js'
import { handleFrontendMetrics, handleFrontendRegister } from './frontend-metrics.js'

interface FrontendDependencies extends PipelineOptions {
  config: VisibilityConfig
}

const EXAMPLE = { status: 200, path: '?userId=42', body: '{"context":{"userId":"42"}}' }

/** Every frontend route, under both of Edge's prefixes. */
export function frontendRoutes(deps: FrontendDependencies): RouteDeclaration[] {
  const answer = (selection: FrontendSelection): RouteDeclaration['handle'] =>
    answerPipeline(frontendDialect(deps.config, selection, flagNameOf), deps)
  const answers = { enabled: answer('enabled'), all: answer('all'), one: answer('one') }
  const routes: RouteDeclaration[] = []
  for (const prefix of ['/api/frontend', '/api/proxy']) {
    const evaluate = (path: string, all: boolean): RouteDeclaration => ({
      methods: ['GET', 'HEAD', 'POST'],
      path,
      access: 'frontend-token',
      waitsForFlags: true,
      ownCors: true,
      cors: 'frontend',
      errors: 'unleash',
      example: { ...EXAMPLE, path: `${path}${EXAMPLE.path}` },
      handle: all ? answers.all : answers.enabled,
    })
    const posted = (path: string, handle: RouteDeclaration['handle'], body: string): RouteDeclaration => ({
      methods: ['POST'],
      path,
      access: 'frontend-token',
      waitsForFlags: false,
      cors: 'frontend',
      errors: 'unleash',
      example: { status: 200, body },
      handle,
    })
    routes.push(
      evaluate(prefix, false),
      {
        methods: ['GET', 'HEAD', 'POST'],
        path: `${prefix}/features`,
        prefix: 'below',
        access: 'frontend-token',
        waitsForFlags: true,
        ownCors: true,
        cors: 'frontend',
        errors: 'unleash',
        example: { status: 200, path: `${prefix}/features/example?userId=42` },
        handle: answers.one,
      },
      posted(`${prefix}/client/metrics`, handleFrontendMetrics, EXAMPLE_METRICS),
      posted(`${prefix}/client/register`, handleFrontendRegister, EXAMPLE_REGISTRATION),
    )
    if (deps.config.frontendAllEndpoint) {
      routes.push(
        evaluate(`${prefix}/all`, true),
        posted(`${prefix}/all/client/metrics`, handleFrontendMetrics, EXAMPLE_METRICS),
        posted(`${prefix}/all/client/register`, handleFrontendRegister, EXAMPLE_REGISTRATION),
      )
    }
  }
  return routes
}

const EXAMPLE_METRICS = JSON.stringify({
  appName: 'example',
  instanceId: 'i',
  bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: {} },
})
const EXAMPLE_REGISTRATION = JSON.stringify({
  appName: 'example',
  instanceId: 'i',
  sdkVersion: 'unleash-client-js:3.0.0',
  strategies: [],
  started: '2026-01-01T00:00:00.000Z',
  interval: 15000,
})

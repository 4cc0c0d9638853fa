// OFREP's routes (packages/proxy/README.md, "OpenFeature (OFREP)"): POST /ofrep/v1/evaluate/flags
// (bulk) and POST /ofrep/v1/evaluate/flags/<key> (one flag), for client keys and frontend tokens,
// with OFREP's CORS headers; the protocol is protocols/ofrep.ts, through the answer pipeline.
import { answerPipeline, type PipelineOptions } from '../answers/pipeline.js'
import { type OfrepConfig, ofrepBulkDialect, ofrepSingleDialect } from '../protocols/ofrep.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import { flagNameOf } from '../routing/route-path.js'
import type { UsageSink } from '../scope/token-scopes.js'

const OFREP_BULK_PATH = '/ofrep/v1/evaluate/flags'

interface OfrepDependencies extends PipelineOptions {
  config: OfrepConfig
  /** Where the counts and apps of client-key callers go (the /proxy scope's); token callers' go into their scope's. */
  staticUsage: UsageSink | undefined
}

const EXAMPLE_BODY = '{"context":{"targetingKey":"42"}}'

export function ofrepRoutes(deps: OfrepDependencies): RouteDeclaration[] {
  const bulk = answerPipeline(ofrepBulkDialect(deps.config, deps.staticUsage), deps)
  const single = answerPipeline(ofrepSingleDialect(deps.config, deps.staticUsage, flagNameOf), deps)
  const route = (
    path: string,
    prefix: RouteDeclaration['prefix'],
    handle: RouteDeclaration['handle'],
    examplePath?: string,
  ): RouteDeclaration => ({
    methods: ['POST'],
    path,
    ...(prefix ? { prefix } : {}),
    access: 'client-key-or-frontend-token',
    waitsForFlags: true,
    ownCors: true,
    cors: 'ofrep',
    errors: 'ofrep',
    example: { status: 200, body: EXAMPLE_BODY, ...(examplePath ? { path: examplePath } : {}) },
    handle,
  })
  return [route(OFREP_BULK_PATH, false, bulk), route(OFREP_BULK_PATH, 'below', single, `${OFREP_BULK_PATH}/example`)]
}

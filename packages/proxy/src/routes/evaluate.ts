// GET/POST /proxy and /proxy/all for client keys: the old proxy's protocol (protocols/old-proxy.ts)
// through the answer pipeline. The router answers 503 (no flags yet) and 401 (no valid key) first.
import { answerPipeline, type PipelineOptions } from '../answers/pipeline.js'
import { type OldProxyConfig, oldProxyDialect } from '../protocols/old-proxy.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import type { UsageSink } from '../scope/token-scopes.js'

interface EvaluateDependencies extends PipelineOptions {
  config: OldProxyConfig
  /** The static scope's usage counts (a listed POST's toggles). */
  usage: UsageSink
}

export function evaluateRoutes(deps: EvaluateDependencies): RouteDeclaration[] {
  const route = (path: string, all: boolean): RouteDeclaration => {
    const answer = answerPipeline(oldProxyDialect(deps.config, deps.usage, all), deps)
    return {
      methods: ['GET', 'HEAD', 'POST'],
      path,
      access: 'client-key',
      waitsForFlags: true,
      ownCors: true,
      example: { status: 200, path: `${path}?userId=42`, body: '{"context":{"userId":"42"}}' },
      handle: answer,
    }
  }
  return [route('/proxy', false), route('/proxy/all', true)]
}

// The admin API of the real Unleash server (test-fixtures/src/unleash-server.ts), called with its
// admin token: flags, strategies, variants, segments, dependencies, context fields and API tokens.
import type { RawResponse, RequestOptions } from './raw-request.ts'

export type TokenType = 'client' | 'backend' | 'frontend' | 'admin'

export interface StrategyInput {
  name?: string
  title?: string
  disabled?: boolean
  parameters?: Record<string, string>
  constraints?: unknown[]
  variants?: unknown[]
  segments?: number[]
}

export interface UnleashAdmin {
  /** An admin API call with the admin token; throws on a non-2xx answer, naming it. */
  call<T = any>(method: string, path: string, body?: unknown): Promise<T>
  createFlag(
    name: string,
    options?: { project?: string; type?: string; description?: string; impressionData?: boolean },
  ): Promise<unknown>
  /** Adds a strategy to a flag in an environment (default `flexibleRollout` at 100 %); returns it with its id. */
  addStrategy(flag: string, environment: string, strategy?: StrategyInput, project?: string): Promise<{ id: string }>
  /** Replaces the flag's (legacy, per-environment) variants; the fixture enables them, 8.2 refuses them by default. */
  setVariants(flag: string, environment: string, variants: unknown[], project?: string): Promise<unknown>
  enable(flag: string, environment: string, project?: string): Promise<void>
  disable(flag: string, environment: string, project?: string): Promise<void>
  createSegment(
    name: string,
    constraints: unknown[],
    options?: { description?: string; project?: string },
  ): Promise<{ id: number }>
  addDependency(
    child: string,
    parent: { feature: string; enabled?: boolean; variants?: string[] },
    project?: string,
  ): Promise<void>
  /**
   * Creates a custom context field (constraints on unknown fields are accepted anyway);
   * `stickiness` lets rollouts and variants stick to it.
   */
  createContextField(name: string, options?: { legalValues?: string[]; stickiness?: boolean }): Promise<void>
  /** Creates an API token (`type` client/backend/frontend/admin) and returns its secret. */
  createToken(type: TokenType, environment: string, projects?: string[]): Promise<string>
}

type Request = (method: string, path: string, options?: RequestOptions) => Promise<RawResponse>

export function createUnleashAdmin(request: Request, adminToken: string): UnleashAdmin {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await request(method, path, { headers: { authorization: adminToken }, body })
    if (response.status < 200 || response.status > 299)
      throw new Error(`Unleash admin ${method} ${path} answered ${response.status}: ${response.text}`)
    return response.json as any
  }
  const feature = (project: string, flag: string) =>
    `/api/admin/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(flag)}`
  const environmentOf = (project: string, flag: string, environment: string) =>
    `${feature(project, flag)}/environments/${encodeURIComponent(environment)}`
  return {
    call,
    createFlag: (name, { project = 'default', type = 'release', description, impressionData = false } = {}) =>
      call('POST', `/api/admin/projects/${encodeURIComponent(project)}/features`, {
        name,
        type,
        description,
        impressionData,
      }),
    addStrategy: (flag, environment, strategy = {}, project = 'default') =>
      call('POST', `${environmentOf(project, flag, environment)}/strategies`, {
        name: 'flexibleRollout',
        constraints: [],
        ...strategy,
        parameters:
          strategy.parameters ??
          (strategy.name && strategy.name !== 'flexibleRollout'
            ? {}
            : { rollout: '100', stickiness: 'default', groupId: flag }),
      }),
    setVariants: (flag, environment, variants, project = 'default') =>
      call('PUT', `${environmentOf(project, flag, environment)}/variants`, variants),
    enable: async (flag, environment, project = 'default') => {
      await call('POST', `${environmentOf(project, flag, environment)}/on`)
    },
    disable: async (flag, environment, project = 'default') => {
      await call('POST', `${environmentOf(project, flag, environment)}/off`)
    },
    createSegment: (name, constraints, { description, project } = {}) =>
      call('POST', '/api/admin/segments', { name, description, project, constraints }),
    addDependency: async (child, parent, project = 'default') => {
      await call('POST', `${feature(project, child)}/dependencies`, { enabled: true, ...parent })
    },
    createContextField: async (name, { legalValues, stickiness = false } = {}) => {
      await call('POST', '/api/admin/context', {
        name,
        stickiness,
        legalValues: legalValues?.map((value) => ({ value })),
      })
    },
    createToken: async (type, environment, projects = ['*']) => {
      const tokenName = `vexil-${type}-${environment}-${projects.join('_').replace(/\W/g, '') || 'none'}`
      const created = await call('POST', '/api/admin/api-tokens', { tokenName, type, environment, projects })
      return created.secret as string
    },
  }
}

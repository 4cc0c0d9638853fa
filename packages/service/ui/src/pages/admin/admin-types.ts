// The admin API's bodies as the admin pages read them (packages/service/README.md, Admin API).
// Only the fields used; kept here rather than in types.ts, which the other pages share.

/** `backend` is Unleash's newer name for a client token; this UI creates the other three. */
export type TokenType = 'client' | 'backend' | 'frontend' | 'admin'

/** One row of `GET /api/admin/api-tokens`: `secret` is the display form (`project:env.abcd…`) there. */
export interface ApiToken {
  id: number
  secret: string
  tokenName: string
  type: TokenType
  environment: string
  projects: string[]
  expiresAt: string | null
  createdAt: string
  seenAt: string | null
}

export interface Environment {
  name: string
  type: string
  enabled: boolean
  protected: boolean
  sortOrder: number
  projectCount: number
  enabledToggleCount: number
}

export interface AdminProject {
  id: string
  name: string
  description: string | null
  defaultStickiness: string
  featureCount: number
}

/** A project's default strategy for one environment (contract B.4/B.5): a strategy body. */
export interface DefaultStrategy {
  name: string
  title?: string | null
  parameters: Record<string, string>
  constraints: unknown[]
  variants: unknown[]
  segments: number[]
  disabled?: boolean | null
}

export interface ArchivedFlag {
  name: string
  type: string
  description: string | null
  project: string
  archivedAt: string | null
  createdAt: string
}

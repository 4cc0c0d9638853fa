// The admin API's bodies as the UI reads them (packages/service/README.md). Only the fields used.
import type { ConstraintDefinition } from '@vexil/engine'

export interface Me {
  user: {
    id: number | null
    name: string | null
    username: string | null
    email: string | null
    isAPI?: boolean
    rootRole: number
  }
  permissions: { permission: string }[]
}

export interface Project {
  id: string
  name: string
  featureCount: number
}

export interface ProjectDetail extends Project {
  environments: string[]
}

export interface FlagEnvironment {
  name: string
  type: string
  enabled: boolean
  sortOrder: number
}

export interface Flag {
  name: string
  type: string
  description: string | null
  project: string
  stale: boolean
  createdAt: string
  environments: FlagEnvironment[]
}

/** A strategy constraint, as the engine reads it (type only: nothing of the engine is bundled). */
export type Constraint = ConstraintDefinition

export interface Strategy {
  id: string
  name: string
  title: string | null
  disabled: boolean
  sortOrder: number
  segments: number[]
  constraints: Constraint[]
  variants: { name: string; weight: number }[]
  parameters: Record<string, string>
}

export interface FlagDetail extends Flag {
  environments: (FlagEnvironment & { strategies: Strategy[]; variants: { name: string }[] })[]
}

export interface Segment {
  id: number
  name: string
}

export interface SignalToken {
  id: number
  name: string
  signalEndpointId: number
  createdAt: string
}

export interface SignalEndpoint {
  id: number
  name: string
  description: string | null
  enabled: boolean
  createdAt: string
  tokens: SignalToken[]
  url?: string
}

export interface Signal {
  id: number
  source: string
  sourceId: number
  createdAt: string
  payload: unknown
  tokenName: string | null
}

export interface PayloadFilter {
  operator: string
  values?: string[]
  value?: string
  inverted?: boolean
  caseInsensitive?: boolean
}

export type ActionName = 'TOGGLE_FEATURE_ON' | 'TOGGLE_FEATURE_OFF'

export interface Action {
  action: ActionName
  sortOrder: number
  executionParams: { project: string; environment: string; featureName: string }
  /** In a run's snapshot. */
  state?: 'success' | 'failed' | 'not started' | 'started'
  details?: string
}

export interface ActionSet {
  id: number
  name: string
  description: string | null
  enabled: boolean
  project: string
  actorId: number
  match: { source: 'signal-endpoint'; sourceId: number; payload: Record<string, PayloadFilter> }
  actions: Action[]
  createdAt: string
}

export interface ActionSetRun {
  id: number
  actionSetId: number
  signalId: number
  createdAt: string
  state: 'success' | 'failed' | 'started'
  signal: { payload?: unknown; createdAt?: string; tokenName?: string | null; sourceId?: number } | null
  actionSet: { actions?: Action[] } | null
}

export interface Insights {
  users: { total: number; active: number; inactive: number }
  flags: { total: number }
  userTrends: { date: string; total: number; active: number; inactive: number }[]
  flagTrends: { date: string; total: number; active: number; stale: number; potentiallyStale: number }[]
  projectFlagTrends: {
    week: string
    date: string
    project: string
    total: number
    health?: number
    timeToProduction?: number
  }[]
  metricsSummaryTrends: {
    week: string
    date: string
    project: string
    totalRequests: number
    totalYes: number
    totalNo: number
  }[]
  environmentTypeTrends: { week: string; date: string; environmentType: string; totalUpdates: number }[]
}

/** One change in the event log (Unleash's eventSchema); `origin` only on an action run's changes. */
export interface ChangeEvent {
  id: number
  type: string
  createdBy: string
  createdByUserId: number | null
  createdAt: string
  project: string | null
  featureName: string | null
  environment: string | null
  data: unknown
  preData: unknown
  tags: { type: string; value: string }[]
  origin?: { actionSetId: number; signalId: number; signalEndpointId: number }
}

/** `/api/admin/search/events` (Unleash's searchEventsSchema). */
export interface ChangeEventPage {
  events: ChangeEvent[]
  total: number
}

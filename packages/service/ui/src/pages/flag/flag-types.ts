// The admin API's flag bodies as the flag pages read them (src/routes/admin/feature-view.ts,
// variants.ts, feature-tags.ts, dependencies.ts): ui/src/types.ts has only what the list needs.
import { seg } from '../../api.ts'
import type { Flag, FlagEnvironment, Strategy } from '../../types.ts'

export type PayloadType = 'string' | 'json' | 'csv' | 'number'

/** A flag (environment) variant, as Unleash's variantSchema. */
export interface Variant {
  name: string
  /** Per mille: 1000 is 100%. */
  weight: number
  weightType: 'variable' | 'fix'
  stickiness: string
  payload?: { type: PayloadType; value: string }
  overrides?: { contextName: string; values: string[] }[]
}

export interface Tag {
  type: string
  value: string
}

export interface TagType {
  name: string
  description: string
}

export interface Dependency {
  /** The parent flag. */
  feature: string
  enabled: boolean
  variants?: string[]
}

export interface FeatureType {
  id: string
  name: string
  description: string
  lifetimeDays: number | null
}

export interface FlagEnvironmentView extends FlagEnvironment {
  strategies: Strategy[]
  variants: Variant[]
}

/** `GET /api/admin/projects/:p/features/:name`. */
export interface FlagView extends Omit<Flag, 'environments'> {
  impressionData: boolean
  environments: FlagEnvironmentView[]
  dependencies: Dependency[]
  /** The flags that depend on this one. */
  children: string[]
  tags: Tag[]
}

/** The admin API path of a flag (its environments, variants and dependencies are under it). */
export const flagPath = (project: string, name: string) => `/api/admin/projects/${seg(project)}/features/${seg(name)}`

/** The UI page of a flag. */
export const flagPage = (project: string, name: string) => `/projects/${seg(project)}/flags/${seg(name)}`

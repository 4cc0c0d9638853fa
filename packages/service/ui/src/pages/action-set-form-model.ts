// The action-set form's state, and its conversions: from an action set, to the API's body, and
// the problems found locally or named by the service's validation details.
import type { ApiError } from '../api.ts'
import type { ActionName, ActionSet, PayloadFilter } from '../types.ts'

/** Operators that compare with one `value` (as in src/schemas/constraint.ts); the others take `values`. */
export const isSingleValue = (operator: string) => /^(NUM_|SEMVER_)/.test(operator)

export interface FilterRow {
  key: number
  path: string
  operator: string
  values: string
  inverted: boolean
  caseInsensitive: boolean
}

export interface ActionRow {
  key: number
  action: ActionName
  featureName: string
  environment: string
}

export interface Form {
  name: string
  description: string
  enabled: boolean
  sourceId: number | undefined
  filters: FilterRow[]
  actions: ActionRow[]
}

let nextKey = 1
export const newFilter = (path = '', value = ''): FilterRow => ({
  key: nextKey++,
  path,
  operator: 'IN',
  values: value,
  inverted: false,
  caseInsensitive: false,
})
export const newAction = (): ActionRow => ({
  key: nextKey++,
  action: 'TOGGLE_FEATURE_OFF',
  featureName: '',
  environment: '',
})

export function fromActionSet(set: ActionSet): Form {
  return {
    name: set.name,
    description: set.description ?? '',
    enabled: set.enabled,
    sourceId: set.match.sourceId,
    filters: Object.entries(set.match.payload ?? {}).map(([path, f]) => ({
      key: nextKey++,
      path,
      operator: f.operator,
      values: f.values?.length ? f.values.join(', ') : (f.value ?? ''),
      inverted: Boolean(f.inverted),
      caseInsensitive: Boolean(f.caseInsensitive),
    })),
    actions: [...set.actions]
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map((a) => ({
        key: nextKey++,
        action: a.action,
        featureName: a.executionParams.featureName,
        environment: a.executionParams.environment,
      })),
  }
}

/** The body of POST/PUT /api/admin/projects/:p/actions (README, Action sets); actions in the order shown. */
export function toBody(form: Form, project: string) {
  const payload: Record<string, PayloadFilter> = {}
  for (const f of form.filters) {
    const base = { operator: f.operator, inverted: f.inverted, caseInsensitive: f.caseInsensitive }
    payload[f.path.trim()] = isSingleValue(f.operator)
      ? { ...base, value: f.values.trim() }
      : {
          ...base,
          values: f.values
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean),
        }
  }
  return {
    name: form.name.trim(),
    description: form.description.trim() || null,
    enabled: form.enabled,
    match: { source: 'signal-endpoint', sourceId: form.sourceId, payload },
    actions: form.actions.map((a, i) => ({
      action: a.action,
      sortOrder: i + 1,
      executionParams: { project, environment: a.environment, featureName: a.featureName },
    })),
  }
}

export type Problems = Record<string, string>

/** What the form can tell before asking the service, keyed as the fields' ids. */
export function check(form: Form): Problems {
  const problems: Problems = {}
  if (!form.name.trim()) problems.name = 'Name is required.'
  if (form.sourceId === undefined) problems.source = 'Choose the signal endpoint this set listens to.'
  const paths = new Set<string>()
  for (const f of form.filters) {
    const path = f.path.trim()
    if (!path) problems[`filter-${f.key}`] = 'A filter needs a field path, such as data.severity.'
    else if (paths.has(path)) problems[`filter-${f.key}`] = `There is already a filter on ${path}.`
    else if (!f.values.trim()) problems[`filter-${f.key}`] = 'A filter needs a value to compare with.'
    paths.add(path)
  }
  if (form.actions.length === 0) problems.actions = 'Add at least one action.'
  for (const a of form.actions) {
    if (!a.featureName || !a.environment) problems[`action-${a.key}`] = 'Choose a flag and an environment.'
  }
  return problems
}

/** The service's validation details, placed on the fields they name (`body.match.payload.<path>…`). */
export function serverProblems(error: ApiError | undefined, form: Form): Problems {
  const problems: Problems = {}
  if (error?.name === 'NameExistsError') problems.name = error.message
  for (const detail of error?.details ?? []) {
    const path = detail.path ?? ''
    const text = detail.message
    if (path === 'body.name') problems.name = text
    else if (path.startsWith('body.match.sourceId')) problems.source = text
    else if (path.startsWith('body.match.payload.')) {
      const rest = path.slice('body.match.payload.'.length)
      const row = form.filters.find((f) => rest === f.path.trim() || rest.startsWith(`${f.path.trim()}.`))
      if (row) problems[`filter-${row.key}`] = text
    } else if (path.startsWith('body.actions.')) {
      const row = form.actions[Number(path.split('.')[2])]
      if (row) problems[`action-${row.key}`] = text
    }
  }
  return problems
}

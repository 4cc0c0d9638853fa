// The strategy form's state and its conversions: from a stored strategy, to the API's body, and
// the problems found before saving (the engine's own checks, checkStrategy and checkConstraint)
// or named by the service's answer.
import { checkStrategy } from '@vexil/engine'
import type { ApiError } from '../../api.ts'
import type { Strategy } from '../../types.ts'
import {
  type ConstraintRow,
  constraintProblems,
  constraintServerProblems,
  engineSays,
  fromConstraint,
  type Problems,
  toConstraint,
  withDraft,
} from './constraints-model.ts'
import { splitList, type StrategyVariant } from './strategy-summary.tsx'
import { fromVariant, toVariant, VARIANT_FIELD, variantProblems, type VariantRow } from './variants-model.ts'

/** The kinds offered for a new strategy; the legacy gradual ones only when editing one. */
export const NEW_KINDS = ['flexibleRollout', 'default', 'userWithId', 'remoteAddress', 'applicationHostname']
export const LEGACY_KINDS = ['gradualRolloutUserId', 'gradualRolloutSessionId', 'gradualRolloutRandom']

/** The kinds whose one parameter is a comma-separated list, and its name. */
export const LIST_PARAMETER: Record<string, { name: string; noun: string; label: string }> = {
  userWithId: { name: 'userIds', noun: 'user id', label: 'User IDs' },
  remoteAddress: { name: 'IPs', noun: 'address', label: 'IP addresses and CIDR ranges' },
  applicationHostname: { name: 'hostNames', noun: 'host name', label: 'Host names' },
}

export const STICKINESS = ['default', 'userId', 'sessionId', 'random']

export interface StrategyForm {
  name: string
  title: string
  disabled: boolean
  /** The kind's scalar parameters (rollout, stickiness, groupId, percentage, or a custom kind's). */
  parameters: Record<string, string>
  /** The kind's list parameter (LIST_PARAMETER), when it has one. */
  list: string[]
  listDraft: string
  constraints: ConstraintRow[]
  segments: number[]
  variants: VariantRow[]
  sortOrder: number | undefined
}

/** A new kind's parameters: a rollout of 100% by the project's stickiness, grouped by the flag. */
export function defaultParameters(kind: string, flag: string, stickiness: string): Record<string, string> {
  switch (kind) {
    case 'flexibleRollout':
      return { rollout: '100', stickiness, groupId: flag }
    case 'gradualRolloutUserId':
    case 'gradualRolloutSessionId':
      return { percentage: '100', groupId: flag }
    case 'gradualRolloutRandom':
      return { percentage: '100' }
    default:
      return {}
  }
}

/** A new strategy, from the project's default one for the environment (its empty groupId is the flag's name). */
export function fromDefault(strategy: Omit<Strategy, 'id' | 'sortOrder'>, flag: string): StrategyForm {
  const form = fromStrategy({ ...strategy, id: '', sortOrder: 0 })
  const parameters = { ...form.parameters }
  if ('groupId' in parameters && !parameters.groupId) parameters.groupId = flag
  return { ...form, parameters, sortOrder: undefined }
}

/** The form with another kind: that kind's parameters, the rest kept. */
export function withKind(form: StrategyForm, kind: string, flag: string, stickiness: string): StrategyForm {
  return { ...form, name: kind, parameters: defaultParameters(kind, flag, stickiness), list: [], listDraft: '' }
}

export function fromStrategy(strategy: Strategy): StrategyForm {
  const list = LIST_PARAMETER[strategy.name]
  const parameters = { ...strategy.parameters }
  if (list) delete parameters[list.name]
  return {
    name: strategy.name,
    title: strategy.title ?? '',
    disabled: Boolean(strategy.disabled),
    parameters,
    list: list ? splitList(strategy.parameters[list.name]) : [],
    listDraft: '',
    constraints: strategy.constraints.map(fromConstraint),
    segments: [...strategy.segments],
    variants: (strategy.variants as StrategyVariant[]).map(fromVariant),
    sortOrder: strategy.sortOrder,
  }
}

/** The kind's parameters as stored: strings, the list joined with commas. */
export function parametersOf(form: StrategyForm): Record<string, string> {
  const list = LIST_PARAMETER[form.name]
  const parameters: Record<string, string> = {}
  for (const [key, value] of Object.entries(form.parameters)) parameters[key] = value.trim()
  if (list) parameters[list.name] = withDraft(form.list, form.listDraft).join(',')
  return parameters
}

/** The body of POST/PUT …/strategies (packages/service/README.md, strategies). */
export function toBody(form: StrategyForm) {
  return {
    name: form.name,
    title: form.title.trim() || null,
    disabled: form.disabled,
    parameters: parametersOf(form),
    constraints: form.constraints.map(toConstraint),
    segments: form.segments,
    variants: form.variants.map(toVariant),
    ...(form.sortOrder === undefined ? {} : { sortOrder: form.sortOrder }),
  }
}

/** Ids of the form's fields that problems are keyed by. */
export const FIELD = {
  kind: 'strategy-kind',
  rollout: 'rollout',
  percentage: 'percentage',
  stickiness: 'stickiness',
  groupId: 'group-id',
  list: 'list-parameter',
  segments: 'segments',
  parameters: 'parameters',
}

/** What the form can tell before asking the service: required fields once `submitted`; the engine's and the payloads' checks always. */
export function checkForm(form: StrategyForm, submitted: boolean): Problems {
  return {
    ...parameterProblems(form, submitted),
    ...constraintProblems(form.constraints, submitted),
    ...variantProblems(form.variants, submitted),
  }
}

function parameterProblems(form: StrategyForm, submitted: boolean): Problems {
  const problems: Problems = {}
  const list = LIST_PARAMETER[form.name]
  const parameters = parametersOf(form)
  if (list && parameters[list.name] === '' && submitted)
    problems[FIELD.list] = `Add at least one ${list.noun}: with none, the strategy matches nobody.`
  if (form.name === 'flexibleRollout' && submitted && !(parameters.stickiness ?? ''))
    problems[FIELD.stickiness] = 'Name the context field to be sticky on.'
  // The engine's own reading of the parameters: a rollout it cannot use, addresses it would skip.
  // A custom kind is unknown to the engine by itself (an SDK registers it): not a mistake here.
  const warnings = checkStrategy({ name: form.name, parameters }).filter((w) => w.code !== 'unknown-strategy')
  if (warnings.length > 0) {
    const at = list
      ? FIELD.list
      : 'rollout' in parameters
        ? FIELD.rollout
        : 'percentage' in parameters
          ? FIELD.percentage
          : FIELD.parameters
    problems[at] = warnings.map((w) => engineSays(w.message)).join(' ')
  }
  return problems
}

/** The service's answer placed on the fields it names (`body.constraints.0.value`, `body.segments…`). */
export function serverProblems(error: ApiError | undefined, form: StrategyForm): Problems {
  if (!error) return {}
  const details =
    error.details.length > 0 ? error.details : [{ message: error.message, path: error.message.split(':')[0] }]
  const problems: Problems = constraintServerProblems(details, form.constraints, 'body.constraints')
  for (const detail of details) {
    const path = detail.path ?? ''
    if (path.startsWith('body.segments')) problems[FIELD.segments] = detail.message
    else if (path.startsWith('body.variants')) {
      const row = form.variants[Number(path.split('.')[2])]
      problems[row ? VARIANT_FIELD.name(row) : VARIANT_FIELD.all] = detail.message
    } else if (path.startsWith('body.parameters'))
      problems[LIST_PARAMETER[form.name] ? FIELD.list : FIELD.parameters] = detail.message
    else if (path === 'body.name') problems[FIELD.kind] = detail.message
  }
  return problems
}

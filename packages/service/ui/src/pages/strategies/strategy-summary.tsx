// A strategy in words, for the flag page and the strategy form's preview: what its kind does with
// its parameters, each constraint as a phrase, its segments by name, its variants with their
// share and payload. Nothing here loads the engine: the flag page shows these without it.
import type { Constraint, Strategy } from '../../types.ts'
import './strategies.css'
import { strategyLabel } from './strategy-labels.ts'

/** A strategy variant as the admin API returns it (types.ts keeps only name and weight). */
export interface StrategyVariant {
  name: string
  weight: number
  weightType?: string
  stickiness?: string
  payload?: { type: string; value: string }
}

/** What each operator says about the field, in words (the "values" follow). */
export const OPERATOR_PHRASES: Record<string, string> = {
  IN: 'is one of',
  NOT_IN: 'is not one of',
  STR_STARTS_WITH: 'starts with',
  STR_ENDS_WITH: 'ends with',
  STR_CONTAINS: 'contains',
  NUM_EQ: 'equals',
  NUM_GT: 'is greater than',
  NUM_GTE: 'is at least',
  NUM_LT: 'is less than',
  NUM_LTE: 'is at most',
  DATE_AFTER: 'is after',
  DATE_BEFORE: 'is before',
  SEMVER_EQ: 'is version',
  SEMVER_GT: 'is a version after',
  SEMVER_GTE: 'is at least version',
  SEMVER_LT: 'is a version before',
  SEMVER_LTE: 'is at most version',
  REGEX: 'matches the pattern',
  IN_CIDR: 'is an address in',
}

/** Operators that compare with one `value` (src/schemas/constraint.ts); the others take `values`. */
export const isSingleValue = (operator: string): boolean => /^(NUM_|DATE_|SEMVER_|REGEX$)/.test(operator)

/** Operators `caseInsensitive` changes (the engine's string operators and REGEX). */
export const takesCaseInsensitive = (operator: string): boolean => operator.startsWith('STR_') || operator === 'REGEX'

/** A list parameter (userIds, IPs, hostNames) as its entries: comma-separated, trimmed. */
export const splitList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)

const percent = (weight: number) => `${Number((weight / 10).toFixed(1))}%`

/** Who a rollout of this stickiness counts (Unleash: default is userId, else sessionId, else random). */
function rolloutOf(rollout: string | undefined, stickiness: string | undefined) {
  const share = <strong>{rollout ?? '100'}%</strong>
  switch (stickiness || 'default') {
    case 'default':
      return <>{share} of users, by userId (else sessionId, else at random)</>
    case 'userId':
      return <>{share} of users, by userId</>
    case 'sessionId':
      return <>{share} of sessions, by sessionId</>
    case 'random':
      return <>{share} of requests, at random</>
    default:
      return (
        <>
          {share} of requests, by <code>{stickiness}</code>
        </>
      )
  }
}

/** The kind's parameters as one sentence; `flag` names the default group. */
export function ParametersInWords({
  name,
  parameters,
  flag,
}: {
  name: string
  parameters: Record<string, string>
  flag: string
}) {
  const group =
    parameters.groupId && parameters.groupId !== flag ? (
      <>
        {' '}
        in group <code>{parameters.groupId}</code>
      </>
    ) : null
  switch (name) {
    case 'default':
      return <>On for everyone</>
    case 'flexibleRollout':
      return (
        <>
          {rolloutOf(parameters.rollout, parameters.stickiness)}
          {group}
        </>
      )
    case 'gradualRolloutUserId':
      return (
        <>
          {rolloutOf(parameters.percentage, 'userId')}
          {group}
        </>
      )
    case 'gradualRolloutSessionId':
      return (
        <>
          {rolloutOf(parameters.percentage, 'sessionId')}
          {group}
        </>
      )
    case 'gradualRolloutRandom':
      return <>{rolloutOf(parameters.percentage, 'random')}</>
    case 'userWithId':
      return (
        <>
          Users whose userId is <Values values={splitList(parameters.userIds)} />
        </>
      )
    case 'remoteAddress':
      return (
        <>
          Requests from <Values values={splitList(parameters.IPs)} />
        </>
      )
    case 'applicationHostname':
      return (
        <>
          Apps running on the host <Values values={splitList(parameters.hostNames)} />
        </>
      )
    default: {
      const entries = Object.entries(parameters).filter(([, value]) => value !== '')
      if (entries.length === 0) return <>No parameters</>
      return (
        <>
          {entries.map(([key, value], i) => (
            <span key={key}>
              {i > 0 && ', '}
              {key} = <code>{value}</code>
            </span>
          ))}
        </>
      )
    }
  }
}

const SHOWN = 8

/** Values as code chips joined by "or"; a long list is cut, saying how many more there are. */
export function Values({ values }: { values: string[] }) {
  if (values.length === 0) return <em class="muted">(none)</em>
  const shown = values.slice(0, SHOWN)
  return (
    <span class="values">
      {shown.map((value, i) => (
        <span key={i}>
          {i > 0 && (i === values.length - 1 ? ' or ' : ', ')}
          <code class="wrap">{value}</code>
        </span>
      ))}
      {values.length > SHOWN && <> and {values.length - SHOWN} more</>}
    </span>
  )
}

/** One constraint as a phrase: `NOT email ends with @example.com (ignoring case)`. */
export function ConstraintInWords({ constraint }: { constraint: Constraint }) {
  const { contextName, operator, inverted, caseInsensitive } = constraint
  const values = isSingleValue(operator) ? [constraint.value ?? ''] : (constraint.values ?? [])
  return (
    <span class="constraint-words">
      {inverted && (
        <>
          <strong class="not" title="inverted">
            NOT
          </strong>{' '}
        </>
      )}
      <code>{contextName}</code>{' '}
      <span class="operator" title={operator}>
        {OPERATOR_PHRASES[operator] ?? operator}
      </span>{' '}
      <Values values={values} />
      {caseInsensitive && takesCaseInsensitive(operator) && <span class="muted"> (ignoring case)</span>}
    </span>
  )
}

/** Everything a strategy does, in words: parameters, constraints, segments and variants. */
export function StrategyDetails({
  strategy,
  flag,
  segmentName,
}: {
  strategy: Pick<Strategy, 'name' | 'parameters' | 'constraints' | 'segments'> & { variants: StrategyVariant[] }
  flag: string
  segmentName: (id: number) => string
}) {
  return (
    <div class="strategy-details">
      <p class="strategy-words">
        <ParametersInWords name={strategy.name} parameters={strategy.parameters ?? {}} flag={flag} />
      </p>
      {strategy.constraints.length > 0 && (
        <div>
          <span class="detail-label">When all of</span>
          <ul class="constraint-list">
            {strategy.constraints.map((c, i) => (
              <li key={i}>
                <ConstraintInWords constraint={c} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {strategy.segments.length > 0 && (
        <p>
          <span class="detail-label">And in the segment{strategy.segments.length > 1 ? 's' : ''}</span>{' '}
          {strategy.segments.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <strong>{segmentName(id)}</strong>
            </span>
          ))}
        </p>
      )}
      {strategy.variants.length > 0 && (
        <div>
          <span class="detail-label">Variants</span>
          <ul class="variant-list">
            {strategy.variants.map((v) => (
              <li key={v.name}>
                <code>{v.name}</code> {percent(v.weight)}
                {v.weightType === 'fix' && ' (fixed)'}
                {v.payload && (
                  <span class="muted">
                    {' '}
                    · {v.payload.type} payload <code class="variant-payload">{v.payload.value}</code>
                  </span>
                )}
                {v.stickiness && v.stickiness !== 'default' && <span class="muted"> · by {v.stickiness}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

/** The heading of a strategy: its title, else its kind's label. */
export const strategyHeading = (strategy: { title?: string | null; name: string }): string => strategyLabel(strategy)

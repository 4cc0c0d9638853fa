import { seg, useApi } from '../../api.ts'
import { Badge, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useLoad } from '../../hooks.ts'
import type { FlagDetail, Segment, Strategy } from '../../types.ts'
import type { StrategyVariant } from './strategy-summary.tsx'
import { STRATEGY_LABELS, strategyLabel } from './strategy-labels.ts'

export { STRATEGY_LABELS }

// The flag page's editable list of one environment's strategies (contract C). A module of its
// own, so that the flags list, which imports this file, does not load it.
export { EnvironmentStrategies, type EnvironmentStrategiesProps } from './environment-strategies.tsx'

/** A flag's strategies per environment, read-only. */
export function FlagStrategies({ project, name }: { project: string; name: string }) {
  const api = useApi()
  const detail = useLoad(
    () => api.get<FlagDetail>(`/api/admin/projects/${seg(project)}/features/${seg(name)}`),
    [project, name],
  )
  const segments = useLoad(() => api.get<{ segments: Segment[] }>('/api/admin/segments'), [])
  if (detail.error) return <ErrorNote error={detail.error} />
  if (!detail.data) return <Loading what="strategies" />
  const segmentName = (id: number) => segments.data?.segments.find((s) => s.id === id)?.name ?? `segment ${id}`
  return (
    <div class="strategies" role="group" aria-label={`Strategies of ${name}`}>
      {detail.data.environments.map((env) => (
        <section key={env.name} class="strategy-env">
          <h3>
            {env.name} <Badge tone={env.enabled ? 'good' : 'neutral'}>{env.enabled ? 'on' : 'off'}</Badge>
          </h3>
          {env.strategies.length === 0 ? (
            <p class="muted">No strategies{env.enabled ? '' : ' (turning the flag on adds the standard one)'}.</p>
          ) : (
            <ol class="strategy-list">
              {env.strategies.map((strategy) => (
                <StrategyView key={strategy.id} strategy={strategy} segmentName={segmentName} />
              ))}
            </ol>
          )}
        </section>
      ))}
    </div>
  )
}

function StrategyView({ strategy, segmentName }: { strategy: Strategy; segmentName: (id: number) => string }) {
  const parameters = Object.entries(strategy.parameters ?? {}).filter(([, value]) => value !== '')
  return (
    <li class="strategy">
      <div class="strategy-title">
        <strong>{strategyLabel(strategy)}</strong> <code>{strategy.name}</code>
        {strategy.disabled && <Badge tone="warn">disabled</Badge>}
      </div>
      {parameters.length > 0 && (
        <dl class="params">
          {parameters.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{key === 'rollout' ? `${value}%` : value}</dd>
            </div>
          ))}
        </dl>
      )}
      {strategy.constraints.length > 0 && (
        <ul class="constraints">
          {strategy.constraints.map((c, i) => (
            <li key={i}>
              <code>{c.contextName}</code> {c.inverted && <strong>NOT </strong>}
              <span class="operator">{c.operator}</span> {(c.values?.length ? c.values : [c.value ?? '']).join(', ')}
              {c.caseInsensitive && <span class="muted"> (case-insensitive)</span>}
            </li>
          ))}
        </ul>
      )}
      {strategy.segments.length > 0 && <p class="muted">Segments: {strategy.segments.map(segmentName).join(', ')}</p>}
      {strategy.variants.length > 0 && (
        <ul class="muted variant-list" aria-label="Variants">
          {(strategy.variants as StrategyVariant[]).map((v) => (
            <li key={v.name}>
              {v.name} ({v.weight / 10}%)
              {v.payload && (
                <>
                  {' '}
                  · {v.payload.type} payload <code class="variant-payload">{v.payload.value}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

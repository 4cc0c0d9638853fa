import { seg, useApi } from '../../api.ts'
import { Badge, Card, Switch } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad } from '../../hooks.ts'
import type { Strategy } from '../../types.ts'
import { EnvironmentStrategies, STRATEGY_LABELS } from '../strategies/flag-strategies.tsx'
import { flagPath, type FlagEnvironmentView, type FlagView } from './flag-types.ts'
import { EnvironmentVariants } from './flag-variants.tsx'

/** One section per environment of the flag's project: on/off, strategies (contract C), variants. */
export function FlagEnvironments({ flag, onChanged }: { flag: FlagView; onChanged: () => Promise<void> }) {
  return (
    <Card title="Environments" id="environments">
      <p class="hint">
        The flag is on in an environment only when turned on there, and then for whom its strategies say.
      </p>
      <div class="flag-envs">
        {flag.environments.map((env) => (
          <EnvironmentSection key={env.name} flag={flag} env={env} onChanged={onChanged} />
        ))}
      </div>
    </Card>
  )
}

function EnvironmentSection({
  flag,
  env,
  onChanged,
}: {
  flag: FlagView
  env: FlagEnvironmentView
  onChanged: () => Promise<void>
}) {
  const api = useApi()
  const toggle = useAction()
  const setEnabled = (enabled: boolean) =>
    toggle.run(async () => {
      await api.post(`${flagPath(flag.project, flag.name)}/environments/${seg(env.name)}/${enabled ? 'on' : 'off'}`)
      await onChanged()
    })
  const id = `env-${env.name}`
  return (
    <section class="flag-env" data-env={env.name} aria-labelledby={`${id}-title`}>
      <header class="flag-env-header">
        <h3 id={`${id}-title`}>
          {env.name} <Badge>{env.type}</Badge>
        </h3>
        <Switch
          checked={env.enabled}
          label={`${flag.name} in ${env.name}`}
          busy={toggle.busy}
          onChange={(next) => void setEnabled(next)}
          showText
        />
      </header>
      <ErrorNote error={toggle.error} />
      {env.strategies.length === 0 && !env.enabled && (
        <DefaultStrategyNote project={flag.project} environment={env.name} />
      )}
      <h4>Strategies</h4>
      <EnvironmentStrategies
        project={flag.project}
        name={flag.name}
        environment={env.name}
        strategies={env.strategies}
        onChanged={onChanged}
      />
      <EnvironmentVariants flag={flag} env={env} onChanged={onChanged} />
    </section>
  )
}

/**
 * What turning the flag on here will add (Unleash 8.2: enabling an environment with no strategy
 * adds the project's default strategy), said before the person does it.
 */
function DefaultStrategyNote({ project, environment }: { project: string; environment: string }) {
  const api = useApi()
  const strategy = useLoad(
    () =>
      api.get<Omit<Strategy, 'id' | 'sortOrder'>>(
        `/api/admin/projects/${seg(project)}/environments/${seg(environment)}/default-strategy`,
      ),
    [project, environment],
  )
  return (
    <div class="notice flag-default-strategy">
      Turning it on here adds the project's default strategy:{' '}
      {strategy.data ? (
        <DescribeStrategy strategy={strategy.data} />
      ) : (
        'a gradual rollout to 100% unless the project sets another'
      )}
      .
      <ErrorNote error={strategy.error} focus={false} />
    </div>
  )
}

function DescribeStrategy({ strategy }: { strategy: Omit<Strategy, 'id' | 'sortOrder'> }) {
  const parameters = Object.entries(strategy.parameters ?? {}).filter(
    ([key, value]) => value !== '' && key !== 'groupId',
  )
  const extras = [
    strategy.constraints?.length
      ? `${strategy.constraints.length} ${strategy.constraints.length === 1 ? 'constraint' : 'constraints'}`
      : '',
    strategy.segments?.length
      ? `${strategy.segments.length} ${strategy.segments.length === 1 ? 'segment' : 'segments'}`
      : '',
    strategy.variants?.length
      ? `${strategy.variants.length} ${strategy.variants.length === 1 ? 'variant' : 'variants'}`
      : '',
  ].filter(Boolean)
  return (
    <>
      <strong>{strategy.title || STRATEGY_LABELS[strategy.name] || strategy.name}</strong>
      {parameters.length > 0 &&
        ` (${parameters.map(([key, value]) => `${key} ${key === 'rollout' ? `${value}%` : value}`).join(', ')})`}
      {extras.length > 0 && `, with ${extras.join(', ')}`}
    </>
  )
}

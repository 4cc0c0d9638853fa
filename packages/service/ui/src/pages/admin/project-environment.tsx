import { useId, useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Badge, Button } from '../../components/controls.tsx'
import { ConfirmButton } from '../../components/confirm-button.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad } from '../../hooks.ts'
import type { AdminProject, DefaultStrategy, Environment } from './admin-types.ts'

/** The stickiness Unleash's UI offers without custom context fields (the service has none). */
const STICKINESS = ['default', 'userId', 'sessionId', 'random']

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

function stickinessWords(stickiness: string | undefined): string {
  if (!stickiness || stickiness === 'default') return 'sticky on userId, else sessionId, else random'
  if (stickiness === 'random') return 'random on every evaluation'
  return `sticky on ${stickiness}`
}

/** A default strategy in words, as a person would say it. */
export function describeStrategy(strategy: DefaultStrategy): string {
  const { name, parameters: p } = strategy
  let words: string
  if (name === 'flexibleRollout') {
    const group = p.groupId ? `grouped by "${p.groupId}"` : "grouped by the flag's name"
    words = `Gradual rollout to ${p.rollout ?? '100'}% of users, ${stickinessWords(p.stickiness)}, ${group}`
  } else if (name === 'default') {
    words = 'On for everyone'
  } else {
    const shown = Object.entries(p)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ')
    words = `${name}${shown ? ` (${shown})` : ''}`
  }
  const extras = [
    strategy.constraints.length > 0 && plural(strategy.constraints.length, 'constraint'),
    strategy.segments.length > 0 && plural(strategy.segments.length, 'segment'),
    strategy.variants.length > 0 && plural(strategy.variants.length, 'variant'),
  ].filter(Boolean)
  return `${strategy.title ? `“${strategy.title}”: ` : ''}${words}${extras.length ? `; with ${extras.join(', ')}` : ''}.`
}

/**
 * One environment of a project: its type, the strategy a flag gets when it is turned on there
 * with none (contract B.4/B.5), a small form for that strategy's rollout and stickiness, and
 * taking the environment out of the project.
 */
export function ProjectEnvironment({
  project,
  environment,
  info,
  onRemoved,
}: {
  project: AdminProject
  environment: string
  info: Environment | undefined
  onRemoved: () => Promise<void>
}) {
  const api = useApi()
  const path = `/api/admin/projects/${seg(project.id)}/environments/${seg(environment)}`
  const strategy = useLoad(() => api.get<DefaultStrategy>(`${path}/default-strategy`), [path])
  const [editing, setEditing] = useState(false)
  const where = `${project.id} in ${environment}`
  return (
    <li class="row project-env" data-env={environment}>
      <div class="row-main">
        <span class="row-title">{environment}</span>
        {info && info.type !== info.name && <Badge>{info.type}</Badge>}
        {info && !info.enabled && <Badge tone="warn">disabled</Badge>}
        <p class="default-strategy">
          <span class="muted">Default strategy: </span>
          {strategy.data ? (
            <span data-testid="default-strategy">{describeStrategy(strategy.data)}</span>
          ) : (
            !strategy.error && <span class="muted">loading…</span>
          )}
        </p>
        <ErrorNote error={strategy.error} focus={false} />
        {editing && strategy.data && (
          <DefaultStrategyForm
            strategy={strategy.data}
            projectStickiness={project.defaultStickiness}
            path={`${path}/default-strategy`}
            where={where}
            onDone={async (saved) => {
              if (saved) await strategy.reload()
              setEditing(false)
            }}
          />
        )}
      </div>
      <div class="row-side">
        {!editing && (
          <Button
            size="small"
            disabled={!strategy.data}
            aria-label={`Edit the default strategy of ${where}`}
            onClick={() => setEditing(true)}
          >
            Edit default
          </Button>
        )}
        <ConfirmButton
          label="Remove"
          ariaLabel={`Remove ${environment} from ${project.id}`}
          title={`Remove ${environment} from ${project.name}?`}
          confirmLabel="Remove environment"
          onConfirm={async () => {
            await api.delete(path)
            await onRemoved()
          }}
        >
          <p>
            The project's flags lose their state and strategies in <strong>{environment}</strong>; SDKs of that
            environment stop seeing them. Adding the environment back starts from nothing.
          </p>
        </ConfirmButton>
      </div>
    </li>
  )
}

/** Rollout and stickiness of the default strategy; the rest of it (constraints, segments…) is kept. */
function DefaultStrategyForm({
  strategy,
  projectStickiness,
  path,
  where,
  onDone,
}: {
  strategy: DefaultStrategy
  projectStickiness: string
  path: string
  where: string
  onDone: (saved: boolean) => Promise<void>
}) {
  const api = useApi()
  const id = useId()
  const save = useAction()
  const gradual = strategy.name === 'flexibleRollout'
  const [rollout, setRollout] = useState(gradual ? (strategy.parameters.rollout ?? '100') : '100')
  const [stickiness, setStickiness] = useState((gradual && strategy.parameters.stickiness) || projectStickiness)
  const options = [...new Set([...STICKINESS, projectStickiness, stickiness])]
  const number = Number(rollout)
  const problem =
    rollout.trim() === '' || !Number.isInteger(number) || number < 0 || number > 100
      ? 'Rollout must be a whole number from 0 to 100.'
      : undefined

  const submit = (event: Event) => {
    event.preventDefault()
    if (problem) {
      document.getElementById(`${id}-rollout`)?.focus()
      return
    }
    void save.run(async () => {
      // The group id is left out unless one was set: the service fills in each flag's own name.
      const parameters = { ...(gradual ? strategy.parameters : {}), rollout: String(number), stickiness }
      await api.put(path, { ...strategy, name: 'flexibleRollout', parameters })
      await onDone(true)
    })
  }
  return (
    <form class="default-strategy-form" onSubmit={submit} noValidate aria-label={`Default strategy of ${where}`}>
      {!gradual && (
        <p class="notice">
          Saving replaces the {strategy.name} strategy with a gradual rollout; its constraints and segments are kept.
        </p>
      )}
      <div class={`field${problem ? ' invalid' : ''}`}>
        <label for={`${id}-rollout`}>Rollout</label>
        <div class="rollout-input">
          <input
            type="range"
            min={0}
            max={100}
            step={1}
            value={problem ? 100 : number}
            aria-label={`Rollout slider for ${where}`}
            onInput={(e) => setRollout(e.currentTarget.value)}
          />
          <input
            id={`${id}-rollout`}
            class="percent"
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            step={1}
            value={rollout}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-rollout-error` : undefined}
            onInput={(e) => setRollout(e.currentTarget.value)}
          />
          <span aria-hidden="true">%</span>
        </div>
        {problem && (
          <p class="field-error" id={`${id}-rollout-error`} role="alert">
            {problem}
          </p>
        )}
      </div>
      <div class="field">
        <label for={`${id}-stickiness`}>Stickiness</label>
        <select id={`${id}-stickiness`} value={stickiness} onChange={(e) => setStickiness(e.currentTarget.value)}>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
              {option === projectStickiness ? " (the project's default)" : ''}
            </option>
          ))}
        </select>
      </div>
      <p class="hint span-all">
        Group id:{' '}
        {gradual && strategy.parameters.groupId ? <>“{strategy.parameters.groupId}”</> : "each flag's own name"}, so
        each flag rolls out to its own share of users.
      </p>
      <div class="form-actions span-all">
        <Button type="submit" variant="primary" busy={save.busy}>
          Save default
        </Button>
        <Button variant="ghost" disabled={save.busy} onClick={() => onDone(false)}>
          Cancel
        </Button>
      </div>
      <ErrorNote error={save.error} class="span-all" />
    </form>
  )
}

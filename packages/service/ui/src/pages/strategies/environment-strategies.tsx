// One environment's strategies of a flag, for the flag page (contract C): each readable, with
// edit, disable/enable, delete and keyboard-usable ordering. Re-exported by flag-strategies.tsx;
// a file of its own so that it loads with the flag page, not with the flags list.
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Badge, Button, Empty } from '../../components/controls.tsx'
import { ConfirmButton } from '../../components/confirm-button.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad } from '../../hooks.ts'
import { Link } from '../../router.tsx'
import type { Segment, Strategy } from '../../types.ts'
import { strategyKindLabel } from './strategy-labels.ts'
import { StrategyDetails, type StrategyVariant, strategyHeading } from './strategy-summary.tsx'

export interface EnvironmentStrategiesProps {
  project: string
  name: string
  environment: string
  strategies: Strategy[]
  /** Reloads the flag; called after every change made here. */
  onChanged: () => Promise<void>
}

/** Where the strategy pages of a flag live (app.tsx routes them). */
export const strategyPath = (project: string, name: string, environment: string, id?: string): string =>
  `/projects/${seg(project)}/flags/${seg(name)}/strategies/${seg(environment)}/${id ? `${seg(id)}/edit` : 'new'}`

/** A button's id, so focus can return to it after the list re-renders in its new order. */
const moveButtonId = (environment: string, id: string, direction: 'up' | 'down') =>
  `move-${direction}-${environment}-${id}`

export function EnvironmentStrategies({
  project,
  name,
  environment,
  strategies,
  onChanged,
}: EnvironmentStrategiesProps) {
  const api = useApi()
  const base = `/api/admin/projects/${seg(project)}/features/${seg(name)}/environments/${seg(environment)}/strategies`
  const sorted = [...strategies].sort((a, b) => a.sortOrder - b.sortOrder)
  // Segment names only when a strategy uses one (the flag page shows several environments).
  const usesSegments = sorted.some((s) => s.segments.length > 0)
  const segments = useLoad(
    async () => (usesSegments ? (await api.get<{ segments: Segment[] }>('/api/admin/segments')).segments : []),
    [usesSegments],
  )
  const segmentName = (id: number) => segments.data?.find((s) => s.id === id)?.name ?? `segment ${id}`
  const move = useAction()
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; direction: 'up' | 'down' }>()

  // Moving re-orders the list's DOM nodes, which drops focus: give it back to the moved
  // strategy's button, or to its other one when it reached the end of the list.
  useEffect(() => {
    // While the move is in flight the buttons are disabled, and a disabled button takes no focus.
    if (!focusAfterMove || move.busy) return
    const { id, direction } = focusAfterMove
    const button = document.getElementById(moveButtonId(environment, id, direction)) as HTMLButtonElement | null
    const other = document.getElementById(
      moveButtonId(environment, id, direction === 'up' ? 'down' : 'up'),
    ) as HTMLButtonElement | null
    ;(button && !button.disabled ? button : other)?.focus()
    setFocusAfterMove(undefined)
  }, [strategies, move.busy])

  const moveStrategy = (index: number, direction: 'up' | 'down') => {
    const order = sorted.map((s) => s.id)
    const target = direction === 'up' ? index - 1 : index + 1
    const moved = order[index] as string
    order[index] = order[target] as string
    order[target] = moved
    void move.run(async () => {
      await api.post(
        `${base}/set-sort-order`,
        order.map((id, sortOrder) => ({ id, sortOrder })),
      )
      setFocusAfterMove({ id: moved, direction })
      await onChanged()
    })
  }

  return (
    <div class="env-strategies" data-environment={environment}>
      <ErrorNote error={segments.error} />
      <ErrorNote error={move.error} />
      {sorted.length === 0 ? (
        <Empty>No strategies in {environment} yet.</Empty>
      ) : (
        <ol class="strategy-cards" aria-label={`Strategies of ${name} in ${environment}`}>
          {sorted.map((strategy, i) => (
            <li
              key={strategy.id}
              class={`strategy-card${strategy.disabled ? ' is-disabled' : ''}`}
              data-strategy={strategy.id}
            >
              {i > 0 && (
                <span class="or" aria-hidden="true">
                  or
                </span>
              )}
              <StrategyCard
                project={project}
                name={name}
                environment={environment}
                strategy={strategy}
                base={base}
                onChanged={onChanged}
                segmentName={segmentName}
                moveButtons={
                  sorted.length > 1 && (
                    <span class="move-buttons">
                      <Button
                        size="small"
                        variant="ghost"
                        id={moveButtonId(environment, strategy.id, 'up')}
                        disabled={i === 0 || move.busy}
                        aria-label={`Move ${strategyHeading(strategy)} up`}
                        onClick={() => moveStrategy(i, 'up')}
                      >
                        ↑ Up
                      </Button>
                      <Button
                        size="small"
                        variant="ghost"
                        id={moveButtonId(environment, strategy.id, 'down')}
                        disabled={i === sorted.length - 1 || move.busy}
                        aria-label={`Move ${strategyHeading(strategy)} down`}
                        onClick={() => moveStrategy(i, 'down')}
                      >
                        ↓ Down
                      </Button>
                    </span>
                  )
                }
              />
            </li>
          ))}
        </ol>
      )}
      <p class="add-strategy">
        <Link class="button small" href={strategyPath(project, name, environment)}>
          Add strategy{sorted.length > 0 ? '' : ` in ${environment}`}
        </Link>
      </p>
    </div>
  )
}

function StrategyCard({
  project,
  name,
  environment,
  strategy,
  base,
  onChanged,
  segmentName,
  moveButtons,
}: {
  project: string
  name: string
  environment: string
  strategy: Strategy
  base: string
  onChanged: () => Promise<void>
  segmentName: (id: number) => string
  moveButtons: ComponentChildren
}) {
  const api = useApi()
  const toggle = useAction()
  const heading = strategyHeading(strategy)
  const url = `${base}/${seg(strategy.id)}`
  // Only `disabled` changes: an edit saved meanwhile in another tab is not overwritten.
  const setDisabled = (disabled: boolean) =>
    toggle.run(async () => {
      await api.patch(url, [{ op: 'replace', path: '/disabled', value: disabled }])
      await onChanged()
    })
  return (
    <article class="strategy-box" aria-label={heading}>
      <header class="strategy-head">
        <h5>
          {heading} {strategy.title && <span class="muted kind">{strategyKindLabel(strategy.name)}</span>}
        </h5>
        {strategy.disabled && (
          <Badge tone="warn" title="Kept, but not evaluated: SDKs do not receive it">
            disabled
          </Badge>
        )}
      </header>
      <StrategyDetails
        strategy={{ ...strategy, variants: strategy.variants as StrategyVariant[] }}
        flag={name}
        segmentName={segmentName}
      />
      <ErrorNote error={toggle.error} />
      <div class="strategy-actions">
        <Link
          class="button small"
          href={strategyPath(project, name, environment, strategy.id)}
          aria-label={`Edit ${heading}`}
        >
          Edit
        </Link>
        <Button
          size="small"
          busy={toggle.busy}
          onClick={() => setDisabled(!strategy.disabled)}
          aria-label={`${strategy.disabled ? 'Enable' : 'Disable'} ${heading}`}
        >
          {strategy.disabled ? 'Enable' : 'Disable'}
        </Button>
        {moveButtons}
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete ${heading}`}
          title={`Delete this strategy of ${name}?`}
          confirmLabel="Delete strategy"
          onConfirm={async () => {
            await api.delete(url)
            await onChanged()
          }}
        >
          <p>
            <strong>{heading}</strong> is removed from {name} in {environment}. SDKs stop using it at their next fetch.
          </p>
        </ConfirmButton>
      </div>
    </article>
  )
}

import { Button, Field } from '../components/controls.tsx'
import type { ActionName } from '../types.ts'
import type { ActionRow, Problems } from './action-set-form-model.ts'
import { ACTION_LABELS } from './actions.tsx'

/** An action set's actions in the order they run, each with its flag and environment; reorderable. */
export function ActionRows({
  actions,
  problems,
  flagNames,
  environments,
  onChange,
}: {
  actions: ActionRow[]
  problems: Problems
  flagNames: string[]
  environments: string[]
  onChange: (actions: ActionRow[]) => void
}) {
  const updateAction = (key: number, patch: Partial<ActionRow>) =>
    onChange(actions.map((a) => (a.key === key ? { ...a, ...patch } : a)))
  const move = (index: number, by: number) => {
    const next = [...actions]
    const [row] = next.splice(index, 1)
    next.splice(index + by, 0, row as ActionRow)
    onChange(next)
  }
  return (
    <ol class="action-rows">
      {actions.map((a, i) => (
        <li key={a.key} class="action-row" data-action={i}>
          <span class="step" aria-hidden="true">
            {i + 1}
          </span>
          <div class="action-fields">
            <Field id={`action-${a.key}`} label="Do">
              <select
                id={`action-${a.key}`}
                value={a.action}
                onChange={(e) => updateAction(a.key, { action: e.currentTarget.value as ActionName })}
              >
                {(Object.keys(ACTION_LABELS) as ActionName[]).map((name) => (
                  <option key={name} value={name}>
                    {ACTION_LABELS[name]}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`flag-${a.key}`} label="Flag">
              <select
                id={`flag-${a.key}`}
                value={a.featureName}
                onChange={(e) => updateAction(a.key, { featureName: e.currentTarget.value })}
              >
                <option value="">Choose a flag…</option>
                {flagNames.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
                {a.featureName && !flagNames.includes(a.featureName) && (
                  <option value={a.featureName}>{a.featureName} (missing)</option>
                )}
              </select>
            </Field>
            <Field id={`env-${a.key}`} label="Environment">
              <select
                id={`env-${a.key}`}
                value={a.environment}
                onChange={(e) => updateAction(a.key, { environment: e.currentTarget.value })}
              >
                <option value="">Choose…</option>
                {environments.map((env) => (
                  <option key={env} value={env}>
                    {env}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <div class="action-buttons">
            <Button
              size="small"
              variant="ghost"
              disabled={i === 0}
              aria-label={`Move action ${i + 1} up`}
              onClick={() => move(i, -1)}
            >
              ↑
            </Button>
            <Button
              size="small"
              variant="ghost"
              disabled={i === actions.length - 1}
              aria-label={`Move action ${i + 1} down`}
              onClick={() => move(i, 1)}
            >
              ↓
            </Button>
            <Button
              size="small"
              variant="ghost"
              aria-label={`Remove action ${i + 1}`}
              onClick={() => onChange(actions.filter((x) => x.key !== a.key))}
            >
              Remove
            </Button>
          </div>
          {problems[`action-${a.key}`] && (
            <p class="field-error span-all" role="alert">
              {problems[`action-${a.key}`]}
            </p>
          )}
        </li>
      ))}
    </ol>
  )
}

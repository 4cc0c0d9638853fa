import { useEffect, useState } from 'preact/hooks'
import type { Context } from '@vexil/engine'
import { Button, Field } from '../../components/controls.tsx'
import {
  type ContextFields,
  contextOfFields,
  contextOfJson,
  emptyFields,
  FIELDS,
  type FieldName,
  type FieldProblems,
  fieldsOfContext,
  newRow,
} from './context-model.ts'

const LABELS: Record<FieldName, { label: string; placeholder: string; hint?: string }> = {
  userId: { label: 'userId', placeholder: 'e.g. 42' },
  sessionId: { label: 'sessionId', placeholder: 'e.g. s-1f3a' },
  remoteAddress: { label: 'remoteAddress', placeholder: 'e.g. 10.0.0.7' },
  environment: {
    label: 'environment',
    placeholder: 'e.g. production',
    hint: 'A context field for constraints; SDKs send "default" unless configured.',
  },
  appName: { label: 'appName', placeholder: 'e.g. web-shop' },
  currentTime: { label: 'currentTime', placeholder: 'e.g. 2025-06-01T12:00:00Z', hint: 'ISO 8601; empty: now.' },
}

type Mode = 'fields' | 'json'

/**
 * The context to evaluate: fields and property rows, or raw JSON, each checked in place. `picked`
 * is a context chosen elsewhere (a recent one): it replaces what is entered when it changes.
 */
export function ContextForm({
  busy,
  onEvaluate,
  picked,
}: {
  busy: boolean
  onEvaluate: (context: Context) => void
  picked: { context: Context; seq: number } | undefined
}) {
  const [mode, setMode] = useState<Mode>('fields')
  const [fields, setFields] = useState<ContextFields>(emptyFields)
  const [json, setJson] = useState('{\n  "userId": ""\n}')
  const [problems, setProblems] = useState<FieldProblems>({})
  const [jsonProblem, setJsonProblem] = useState<string>()

  // A recent context was chosen: show it in the boxes when they can hold it, else as JSON.
  useEffect(() => {
    if (!picked) return
    const asFields = fieldsOfContext(picked.context)
    setProblems({})
    setJsonProblem(undefined)
    setJson(JSON.stringify(picked.context, null, 2))
    if (asFields) setFields(asFields)
    setMode(asFields ? 'fields' : 'json')
  }, [picked?.seq])

  const setValue = (name: FieldName, value: string) =>
    setFields((f) => ({ ...f, values: { ...f.values, [name]: value } }))
  const setRow = (id: number, change: Partial<{ name: string; value: string }>) =>
    setFields((f) => ({ ...f, properties: f.properties.map((row) => (row.id === id ? { ...row, ...change } : row)) }))
  const removeRow = (id: number) =>
    setFields((f) => ({ ...f, properties: f.properties.filter((row) => row.id !== id) }))
  const addRow = () => {
    const row = newRow()
    setFields((f) => ({ ...f, properties: [...f.properties, row] }))
    // The new row's name box takes focus once it is drawn.
    requestAnimationFrame(() => document.getElementById(`property-name-${row.id}`)?.focus())
  }

  const fromFields = (): Context | undefined => {
    const made = contextOfFields(fields)
    if ('problems' in made) {
      setProblems(made.problems)
      const [first] = Object.keys(made.problems)
      document
        .getElementById(first!.startsWith('property-') ? `property-name-${first!.slice(9)}` : `context-${first}`)
        ?.focus()
      return undefined
    }
    setProblems({})
    return made.context
  }
  const fromJson = (): Context | undefined => {
    const made = contextOfJson(json)
    if ('problem' in made) {
      setJsonProblem(made.problem)
      document.getElementById('context-json')?.focus()
      return undefined
    }
    setJsonProblem(undefined)
    return made.context
  }

  const switchTo = (next: Mode) => {
    if (next === mode) return
    if (next === 'json') {
      const context = fromFields()
      if (!context) return
      setJson(JSON.stringify(context, null, 2))
      setMode('json')
      return
    }
    const context = fromJson()
    if (!context) return
    const asFields = fieldsOfContext(context)
    if (!asFields) {
      setJsonProblem(
        'This context has values the boxes cannot hold (numbers, objects or other top-level fields): keep editing it as JSON.',
      )
      return
    }
    setFields(asFields)
    setMode('fields')
  }

  const submit = (event: Event) => {
    event.preventDefault()
    const context = mode === 'fields' ? fromFields() : fromJson()
    if (context) onEvaluate(context)
  }

  return (
    <form class="pg-context" onSubmit={submit} noValidate>
      <div class="pg-mode" role="group" aria-label="Enter the context as">
        <Button size="small" aria-pressed={mode === 'fields'} onClick={() => switchTo('fields')}>
          Fields
        </Button>
        <Button size="small" aria-pressed={mode === 'json'} onClick={() => switchTo('json')}>
          JSON
        </Button>
      </div>
      {mode === 'fields' ? (
        <>
          <div class="form-grid pg-fields">
            {FIELDS.map((name) => (
              <Field
                key={name}
                id={`context-${name}`}
                label={LABELS[name].label}
                hint={LABELS[name].hint}
                error={problems[name]}
              >
                <input
                  id={`context-${name}`}
                  value={fields.values[name]}
                  placeholder={LABELS[name].placeholder}
                  autoComplete="off"
                  spellcheck={false}
                  aria-invalid={problems[name] ? true : undefined}
                  aria-describedby={
                    [LABELS[name].hint && `context-${name}-hint`, problems[name] && `context-${name}-error`]
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  onInput={(e) => setValue(name, e.currentTarget.value)}
                />
              </Field>
            ))}
          </div>
          <fieldset class="pg-properties">
            <legend>Custom properties</legend>
            <ul class="pg-rows">
              {fields.properties.map((row, i) => {
                const problem = problems[`property-${row.id}`]
                return (
                  <li key={row.id} class="pg-row">
                    <input
                      id={`property-name-${row.id}`}
                      aria-label={`Property ${i + 1} name`}
                      placeholder="name, e.g. plan"
                      value={row.name}
                      autoComplete="off"
                      spellcheck={false}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={problem ? `property-${row.id}-error` : undefined}
                      onInput={(e) => setRow(row.id, { name: e.currentTarget.value })}
                    />
                    <input
                      aria-label={`Property ${i + 1} value`}
                      placeholder="value, e.g. pro"
                      value={row.value}
                      autoComplete="off"
                      spellcheck={false}
                      onInput={(e) => setRow(row.id, { value: e.currentTarget.value })}
                    />
                    <Button
                      size="small"
                      variant="ghost"
                      aria-label={`Remove property ${i + 1}`}
                      onClick={() => removeRow(row.id)}
                    >
                      Remove
                    </Button>
                    {problem && (
                      <p class="field-error" id={`property-${row.id}-error`} role="alert">
                        {problem}
                      </p>
                    )}
                  </li>
                )
              })}
            </ul>
            <Button size="small" onClick={addRow}>
              Add property
            </Button>
          </fieldset>
        </>
      ) : (
        <Field
          id="context-json"
          label="Context (JSON)"
          hint='An Unleash context: {"userId": "42", "properties": {"plan": "pro"}}'
          error={jsonProblem}
        >
          <textarea
            id="context-json"
            class="pg-json"
            rows={10}
            spellcheck={false}
            value={json}
            aria-invalid={jsonProblem ? true : undefined}
            aria-describedby={jsonProblem ? 'context-json-hint context-json-error' : 'context-json-hint'}
            onInput={(e) => {
              const text = e.currentTarget.value
              setJson(text)
              // Once a problem shows, it follows the text (and goes when it is fixed).
              if (jsonProblem) {
                const made = contextOfJson(text)
                setJsonProblem('problem' in made ? made.problem : undefined)
              }
            }}
          />
        </Field>
      )}
      <div class="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Evaluate
        </Button>
      </div>
    </form>
  )
}

import { useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Badge, Button, Field } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction } from '../../hooks.ts'
import { flagPath, type FlagEnvironmentView, type FlagView, type Variant } from './flag-types.ts'
import {
  check,
  fromVariants,
  newVariant,
  PAYLOAD_TYPES,
  percent,
  shareWeights,
  STICKINESS_OPTIONS,
  toBody,
  type VariantRow,
  type VariantsForm,
} from './flag-variants-model.ts'

/** Context fields an override usually pins (Unleash's built-in ones); any other name can be typed. */
const CONTEXT_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'appName', 'environment', 'hostname']

/**
 * The flag's variants in one environment (Unleash 8.2 keeps flag variants per environment; a
 * strategy's own variants win over them): read, or edited and saved with `PUT …/variants`.
 */
export function EnvironmentVariants({
  flag,
  env,
  onChanged,
}: {
  flag: FlagView
  env: FlagEnvironmentView
  onChanged: () => Promise<void>
}) {
  const [editing, setEditing] = useState(false)
  const variants = env.variants
  if (editing) {
    return <VariantsEditor flag={flag} env={env} onDone={() => setEditing(false)} onChanged={onChanged} />
  }
  return (
    <div class="flag-env-variants" role="group" aria-label={`Variants in ${env.name}`}>
      <div class="flag-env-variants-header">
        <h4>Variants</h4>
        <Button
          size="small"
          onClick={() => setEditing(true)}
          aria-label={`${variants.length ? 'Edit' : 'Add'} variants in ${env.name}`}
        >
          {variants.length ? 'Edit variants' : 'Add variants'}
        </Button>
      </div>
      {variants.length === 0 ? (
        <p class="muted small">
          None: SDKs answer the <code>disabled</code> variant unless a strategy has variants of its own.
        </p>
      ) : (
        <>
          <ul class="fv-list">
            {variants.map((variant) => (
              <VariantSummary key={variant.name} variant={variant} />
            ))}
          </ul>
          <p class="muted small">Stickiness: {variants[0]?.stickiness}</p>
        </>
      )}
    </div>
  )
}

function VariantSummary({ variant }: { variant: Variant }) {
  return (
    <li class="fv-item" data-variant-name={variant.name}>
      <span class="fv-name">{variant.name}</span>
      <Badge tone="info" title={variant.weightType === 'fix' ? 'custom percentage' : 'a share of the rest'}>
        {percent(variant.weight)}
      </Badge>
      {variant.weightType === 'fix' && <span class="muted small">fixed</span>}
      {variant.payload && (
        <span class="fv-payload">
          <span class="muted small">{variant.payload.type}</span> <code class="wrap">{variant.payload.value}</code>
        </span>
      )}
      {variant.overrides?.map((o) => (
        <span key={o.contextName} class="muted small fv-override">
          {o.contextName} = {o.values.join(', ')}
        </span>
      ))}
    </li>
  )
}

function VariantsEditor({
  flag,
  env,
  onDone,
  onChanged,
}: {
  flag: FlagView
  env: FlagEnvironmentView
  onDone: () => void
  onChanged: () => Promise<void>
}) {
  const api = useApi()
  const prefix = `variants-${env.name}`
  const [form, setForm] = useState<VariantsForm>(() =>
    env.variants.length ? fromVariants(env.variants) : { stickiness: 'default', variants: [newVariant()] },
  )
  // A problem shows once its input was typed into, and every problem after a save attempt.
  const [touched, setTouched] = useState<Set<string>>(() => new Set())
  const [checked, setChecked] = useState(false)
  const save = useAction()

  const all = check(form, prefix)
  const problems = Object.fromEntries(
    Object.entries(all).filter(([id]) => checked || touched.has(id) || id === `${prefix}-weights`),
  )
  const weights = shareWeights(form)
  const touch = (id: string) => !touched.has(id) && setTouched(new Set(touched).add(id))
  const setVariant = (i: number, patch: Partial<VariantRow>) =>
    setForm({ ...form, variants: form.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) })
  const remove = (i: number) => {
    setForm({ ...form, variants: form.variants.filter((_, j) => j !== i) })
    // Ids are positional: what was typed into later rows moves up with them.
    setTouched(new Set())
  }

  const submit = (event: Event) => {
    event.preventDefault()
    setChecked(true)
    const first = Object.keys(all)[0]
    if (first) {
      document.getElementById(first)?.focus()
      return
    }
    void save.run(async () => {
      await api.put(`${flagPath(flag.project, flag.name)}/environments/${seg(env.name)}/variants`, toBody(form))
      await onChanged()
      onDone()
    })
  }

  const stickinessOptions = STICKINESS_OPTIONS.includes(form.stickiness)
    ? STICKINESS_OPTIONS
    : [...STICKINESS_OPTIONS, form.stickiness]
  return (
    <form class="flag-variants-editor" onSubmit={submit} noValidate aria-label={`Variants in ${env.name}`}>
      <h4>Variants in {env.name}</h4>
      <datalist id={`${prefix}-context-fields`}>
        {CONTEXT_FIELDS.map((field) => (
          <option key={field} value={field} />
        ))}
      </datalist>
      {form.variants.length === 0 ? (
        <p class="muted small">No variants: saving removes them all from {env.name}.</p>
      ) : (
        <ol class="fv-rows">
          {form.variants.map((variant, i) => (
            <VariantFields
              key={i}
              id={`${prefix}-${i}`}
              index={i}
              variant={variant}
              weight={weights[i] as number}
              problems={problems}
              contextList={`${prefix}-context-fields`}
              onChange={(patch, field) => {
                setVariant(i, patch)
                if (field) touch(`${prefix}-${i}-${field}`)
              }}
              onRemove={() => remove(i)}
            />
          ))}
        </ol>
      )}
      {form.variants.length > 0 && <WeightBar variants={form.variants} weights={weights} />}
      {problems[`${prefix}-weights`] && (
        <p class="field-error" role="alert" id={`${prefix}-weights`} tabIndex={-1}>
          {problems[`${prefix}-weights`]}
        </p>
      )}
      <div class="fv-stickiness">
        <Field
          id={`${prefix}-stickiness`}
          label="Stickiness"
          hint="The context field that keeps a user on the same variant; one for all variants."
        >
          <select
            id={`${prefix}-stickiness`}
            value={form.stickiness}
            onChange={(e) => setForm({ ...form, stickiness: e.currentTarget.value })}
          >
            {stickinessOptions.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorNote error={save.error} />
      <div class="form-actions">
        <Button onClick={() => setForm({ ...form, variants: [...form.variants, newVariant()] })}>Add variant</Button>
        <Button type="submit" variant="primary" busy={save.busy}>
          Save variants
        </Button>
        <Button variant="ghost" onClick={onDone} disabled={save.busy}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

function VariantFields({
  id,
  index,
  variant,
  weight,
  problems,
  contextList,
  onChange,
  onRemove,
}: {
  id: string
  index: number
  variant: VariantRow
  weight: number
  problems: Record<string, string>
  contextList: string
  /** `field`: the input typed into, so its problem shows from now on. */
  onChange: (patch: Partial<VariantRow>, field?: string) => void
  onRemove: () => void
}) {
  const invalid = (field: string) => (problems[`${id}-${field}`] ? true : undefined)
  const setOverride = (j: number, patch: Partial<VariantRow['overrides'][number]>, field: string) =>
    onChange(
      { overrides: variant.overrides.map((o, k) => (k === j ? { ...o, ...patch } : o)) },
      `override-${j}-${field}`,
    )
  const label = `variant ${index + 1}`
  return (
    <li class="fv-row" data-variant={index}>
      <div class="fv-row-head">
        <span class="step" aria-hidden="true">
          {index + 1}
        </span>
        <Field id={`${id}-name`} label="Name" error={problems[`${id}-name`]}>
          <input
            id={`${id}-name`}
            value={variant.name}
            autoComplete="off"
            spellcheck={false}
            aria-invalid={invalid('name')}
            onInput={(e) => onChange({ name: e.currentTarget.value }, 'name')}
          />
        </Field>
        <Button size="small" variant="ghost" class="remove" onClick={onRemove} aria-label={`Remove ${label}`}>
          Remove
        </Button>
      </div>
      <div class="fv-fields">
        <div class="fv-weight">
          <label class="checkbox">
            <input
              type="checkbox"
              checked={variant.fixed}
              onChange={(e) =>
                onChange({ fixed: e.currentTarget.checked, percentage: variant.percentage || percentValue(weight) })
              }
            />
            Custom percentage
          </label>
          {variant.fixed ? (
            <Field id={`${id}-percentage`} label="Percentage" error={problems[`${id}-percentage`]}>
              <span class="fv-percent">
                <input
                  id={`${id}-percentage`}
                  inputMode="decimal"
                  value={variant.percentage}
                  aria-invalid={invalid('percentage')}
                  onInput={(e) => onChange({ percentage: e.currentTarget.value }, 'percentage')}
                />
                <span aria-hidden="true">%</span>
              </span>
            </Field>
          ) : (
            <p class="muted small fv-share">Gets {percent(weight)}: a share of what the custom percentages leave.</p>
          )}
        </div>
        <Field id={`${id}-payload-type`} label="Payload">
          <select
            id={`${id}-payload-type`}
            value={variant.payloadType}
            onChange={(e) => onChange({ payloadType: e.currentTarget.value as VariantRow['payloadType'] })}
          >
            <option value="">No payload</option>
            {PAYLOAD_TYPES.map((p) => (
              <option key={p.type} value={p.type}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        {variant.payloadType && (
          <Field
            id={`${id}-payload`}
            label="Payload value"
            error={problems[`${id}-payload`]}
            hint={variant.payloadType === 'csv' ? 'Comma-separated values.' : undefined}
          >
            <textarea
              id={`${id}-payload`}
              class="flag-mono"
              rows={variant.payloadType === 'json' ? 3 : 1}
              spellcheck={false}
              value={variant.payload}
              aria-invalid={invalid('payload')}
              onInput={(e) => onChange({ payload: e.currentTarget.value }, 'payload')}
            />
          </Field>
        )}
      </div>
      <fieldset class="fv-overrides">
        <legend>
          Overrides{' '}
          <span class="muted small">(these context values always get {variant.name.trim() || 'this variant'})</span>
        </legend>
        {variant.overrides.map((override, j) => (
          <div key={j} class="fv-override-row" data-override={j}>
            <Field
              id={`${id}-override-${j}-context`}
              label="Context field"
              error={problems[`${id}-override-${j}-context`]}
            >
              <input
                id={`${id}-override-${j}-context`}
                list={contextList}
                value={override.contextName}
                autoComplete="off"
                aria-invalid={invalid(`override-${j}-context`)}
                onInput={(e) => setOverride(j, { contextName: e.currentTarget.value }, 'context')}
              />
            </Field>
            <Field
              id={`${id}-override-${j}-values`}
              label="Values (comma-separated)"
              error={problems[`${id}-override-${j}-values`]}
            >
              <input
                id={`${id}-override-${j}-values`}
                value={override.values}
                aria-invalid={invalid(`override-${j}-values`)}
                onInput={(e) => setOverride(j, { values: e.currentTarget.value }, 'values')}
              />
            </Field>
            <Button
              size="small"
              variant="ghost"
              onClick={() => onChange({ overrides: variant.overrides.filter((_, k) => k !== j) })}
              aria-label={`Remove override ${j + 1} of ${label}`}
            >
              Remove
            </Button>
          </div>
        ))}
        <Button
          size="small"
          onClick={() => onChange({ overrides: [...variant.overrides, { contextName: 'userId', values: '' }] })}
          aria-label={`Add override to ${label}`}
        >
          Add override
        </Button>
      </fieldset>
    </li>
  )
}

/** 333 → "33.3" (the percentage input's text). */
const percentValue = (weight: number) => percent(weight).slice(0, -1)

/** How the 100% is shared out, as a bar (the list of shares is in each row for screen readers). */
function WeightBar({ variants, weights }: { variants: VariantRow[]; weights: number[] }) {
  return (
    <div class="fv-weight-bar" aria-hidden="true">
      {variants.map((variant, i) => {
        const weight = weights[i] as number
        return weight > 0 ? (
          <span
            key={i}
            class={`fv-part fv-part-${i % 4}`}
            style={{ width: `${weight / 10}%` }}
            title={`${variant.name || `variant ${i + 1}`}: ${percent(weight)}`}
          >
            {weight >= 120 ? `${variant.name || i + 1} ${percent(weight)}` : ''}
          </span>
        ) : null
      })}
    </div>
  )
}

// A strategy's variants: name, weight (shared automatically, or fixed as in Unleash), stickiness
// and an optional payload, a JSON or number one checked as it is typed.
import type { ComponentChildren } from 'preact'
import { Button, Empty } from '../../components/controls.tsx'
import type { Problems } from './constraints-model.ts'
import { STICKINESS } from './strategy-form-model.ts'
import { newVariant, type PayloadType, VARIANT_FIELD, type VariantRow, variantShares } from './variants-model.ts'

const PAYLOAD_TYPES: [PayloadType, string][] = [
  ['', 'No payload'],
  ['string', 'String'],
  ['json', 'JSON'],
  ['number', 'Number'],
  ['csv', 'CSV'],
]

export function VariantsEditor({
  variants,
  problems,
  stickiness,
  onChange,
}: {
  variants: VariantRow[]
  problems: Problems
  /** The strategy's stickiness: a new variant's, and offered when it is a custom field. */
  stickiness: string
  onChange: (variants: VariantRow[]) => void
}) {
  const update = (key: number, patch: Partial<VariantRow>) =>
    onChange(variants.map((v) => (v.key === key ? { ...v, ...patch } : v)))
  const shares = variantShares(variants)
  const add = () => {
    const row = newVariant(stickiness || 'default')
    onChange([...variants, row])
    requestAnimationFrame(() => document.getElementById(VARIANT_FIELD.name(row))?.focus())
  }
  return (
    <div class="variants-editor">
      {variants.length === 0 ? (
        <Empty>No variants: SDKs asking for a variant get the flag's own variants, if it has any.</Empty>
      ) : (
        <ol class="variant-rows">
          {variants.map((v, i) => (
            <VariantRowEditor
              key={v.key}
              row={v}
              index={i}
              share={shares[i]}
              problems={problems}
              stickiness={stickiness}
              update={(patch) => update(v.key, patch)}
              remove={() => onChange(variants.filter((x) => x.key !== v.key))}
            />
          ))}
        </ol>
      )}
      {problems[VARIANT_FIELD.all] && (
        <p class="field-error" id={VARIANT_FIELD.all} tabIndex={-1}>
          {problems[VARIANT_FIELD.all]}
        </p>
      )}
      <Button size="small" onClick={add}>
        Add variant
      </Button>
    </div>
  )
}

function VariantRowEditor({
  row,
  index,
  share,
  problems,
  stickiness,
  update,
  remove,
}: {
  row: VariantRow
  index: number
  share: number | undefined
  problems: Problems
  stickiness: string
  update: (patch: Partial<VariantRow>) => void
  remove: () => void
}) {
  const name = VARIANT_FIELD.name(row)
  const weight = VARIANT_FIELD.weight(row)
  const payload = VARIANT_FIELD.payload(row)
  const stickinessChoices = [...new Set([...STICKINESS, ...(stickiness ? [stickiness] : []), row.stickiness])]
  const Multiline = row.payloadType === 'json' || row.payloadType === 'csv'
  return (
    <li class="variant-row" data-variant={index}>
      <div class="variant-fields">
        <Cell id={name} label="Name" problem={problems[name]}>
          <input
            id={name}
            value={row.name}
            spellcheck={false}
            autocomplete="off"
            aria-invalid={problems[name] ? true : undefined}
            aria-describedby={problems[name] ? `${name}-error` : undefined}
            onInput={(e) => update({ name: e.currentTarget.value })}
          />
        </Cell>
        <Cell id={`variant-${row.key}-weight-type`} label="Weight">
          <select
            id={`variant-${row.key}-weight-type`}
            value={row.weightType}
            onChange={(e) =>
              update({
                weightType: e.currentTarget.value as VariantRow['weightType'],
                percent: row.percent || (share === undefined ? '' : String(share / 10)),
              })
            }
          >
            <option value="variable">automatic</option>
            <option value="fix">fixed</option>
          </select>
        </Cell>
        <Cell id={weight} label="Share (%)" problem={problems[weight]}>
          {row.weightType === 'fix' ? (
            <input
              id={weight}
              inputMode="decimal"
              value={row.percent}
              aria-invalid={problems[weight] ? true : undefined}
              aria-describedby={problems[weight] ? `${weight}-error` : undefined}
              onInput={(e) => update({ percent: e.currentTarget.value })}
            />
          ) : (
            <output id={weight} class="share">
              {share === undefined ? '–' : `${share / 10}%`}
            </output>
          )}
        </Cell>
        <Cell id={`variant-${row.key}-stickiness`} label="Stickiness">
          <select
            id={`variant-${row.key}-stickiness`}
            value={row.stickiness}
            onChange={(e) => update({ stickiness: e.currentTarget.value })}
          >
            {stickinessChoices.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Cell>
        <Cell id={`variant-${row.key}-payload-type`} label="Payload">
          <select
            id={`variant-${row.key}-payload-type`}
            value={row.payloadType}
            onChange={(e) => update({ payloadType: e.currentTarget.value as PayloadType })}
          >
            {PAYLOAD_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Cell>
      </div>
      {row.payloadType && (
        <Cell
          id={payload}
          label={`${PAYLOAD_TYPES.find(([t]) => t === row.payloadType)?.[1]} payload`}
          problem={problems[payload]}
        >
          {Multiline ? (
            <textarea
              id={payload}
              rows={3}
              class="payload"
              value={row.payload}
              spellcheck={false}
              aria-invalid={problems[payload] ? true : undefined}
              aria-describedby={problems[payload] ? `${payload}-error` : undefined}
              onInput={(e) => update({ payload: e.currentTarget.value })}
            />
          ) : (
            <input
              id={payload}
              class="payload"
              value={row.payload}
              spellcheck={false}
              aria-invalid={problems[payload] ? true : undefined}
              aria-describedby={problems[payload] ? `${payload}-error` : undefined}
              onInput={(e) => update({ payload: e.currentTarget.value })}
            />
          )}
        </Cell>
      )}
      <div class="variant-options">
        <Button size="small" variant="ghost" aria-label={`Remove variant ${row.name || index + 1}`} onClick={remove}>
          Remove
        </Button>
      </div>
    </li>
  )
}

function Cell({
  id,
  label,
  problem,
  children,
}: {
  id: string
  label: string
  problem?: string | undefined
  children: ComponentChildren
}) {
  return (
    <div class={`field${problem ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {problem && (
        <p class="field-error" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </div>
  )
}

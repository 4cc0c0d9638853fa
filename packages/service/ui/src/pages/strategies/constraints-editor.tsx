// Constraint rows, for strategies and segments alike: context field, operator (every operator the
// engine evaluates), the value or values it takes, ignore-case and NOT. Problems come from the
// form (constraints-model.ts: constraintProblems), which checks them with the engine.
import { SUPPORTED_OPERATORS } from '@vexil/engine'
import { Button, Empty } from '../../components/controls.tsx'
import { useContextFieldSuggestions } from './context-fields.ts'
import { type ConstraintRow, fieldId, newConstraint, type Problems, valueId } from './constraints-model.ts'
import { ListInput } from './list-input.tsx'
import { isSingleValue, OPERATOR_PHRASES, takesCaseInsensitive } from './strategy-summary.tsx'

const FAMILIES: [label: string, test: (op: string) => boolean][] = [
  ['Lists', (op) => op === 'IN' || op === 'NOT_IN'],
  ['Text', (op) => op.startsWith('STR_')],
  ['Numbers', (op) => op.startsWith('NUM_')],
  ['Dates', (op) => op.startsWith('DATE_')],
  ['Versions', (op) => op.startsWith('SEMVER_')],
  ['Patterns', (op) => op === 'REGEX'],
  ['Addresses', (op) => op === 'IN_CIDR'],
]

/** The engine's operators by family; one it adds later lands in "Other" rather than missing. */
const OPERATOR_GROUPS: [string, string[]][] = (
  [
    ...FAMILIES.map(([label, test]): [string, string[]] => [label, SUPPORTED_OPERATORS.filter(test)]),
    ['Other', SUPPORTED_OPERATORS.filter((op) => !FAMILIES.some(([, test]) => test(op)))],
  ] as [string, string[]][]
).filter(([, ops]) => ops.length > 0)

/** What to type, per operator family: a placeholder and a hint. */
function valueHelp(operator: string): { placeholder: string; hint: string } {
  if (operator.startsWith('NUM_')) return { placeholder: '42', hint: 'A number, such as 42 or 3.5.' }
  if (operator.startsWith('DATE_'))
    return {
      placeholder: '2030-01-31T12:00:00Z',
      hint: "A date and time (ISO 8601), compared with the context's currentTime (now when it has none).",
    }
  if (operator.startsWith('SEMVER_'))
    return { placeholder: '1.2.3', hint: 'A semantic version, such as 1.2.3 or 2.0.0-beta.1.' }
  if (operator === 'REGEX')
    return { placeholder: '^user-[0-9]+$', hint: "An RE2 pattern, found anywhere in the field's value." }
  if (operator === 'IN_CIDR')
    return { placeholder: '10.0.0.0/8', hint: 'IP ranges (CIDR) or addresses; Enter or a comma adds each.' }
  return { placeholder: 'Type a value, then Enter', hint: 'Enter or a comma adds each value.' }
}

export function ConstraintsEditor({
  rows,
  problems,
  onChange,
  what,
  environment,
}: {
  rows: ConstraintRow[]
  problems: Problems
  onChange: (rows: ConstraintRow[]) => void
  /** What the constraints limit, for the empty state ("the strategy", "the segment"). */
  what: string
  /** The environment of the strategy being edited: the fields its other strategies use are suggested too. */
  environment?: string
}) {
  const suggestions = useContextFieldSuggestions(environment)
  const update = (key: number, patch: Partial<ConstraintRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)))
  const add = () => {
    const row = newConstraint()
    onChange([...rows, row])
    // The new row's first field, once it is rendered.
    requestAnimationFrame(() => document.getElementById(fieldId(row))?.focus())
  }
  return (
    <div class="constraints-editor">
      {rows.length === 0 ? (
        <Empty>No constraints: {what} applies to every context.</Empty>
      ) : (
        <ol class="constraint-rows">
          {rows.map((row, i) => (
            <ConstraintRowEditor
              key={row.key}
              row={row}
              index={i}
              problems={problems}
              update={(patch) => update(row.key, patch)}
              remove={() => onChange(rows.filter((r) => r.key !== row.key))}
            />
          ))}
        </ol>
      )}
      <datalist id="context-fields">
        {suggestions.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      <Button size="small" onClick={add}>
        Add constraint
      </Button>
    </div>
  )
}

function ConstraintRowEditor({
  row,
  index,
  problems,
  update,
  remove,
}: {
  row: ConstraintRow
  index: number
  problems: Problems
  update: (patch: Partial<ConstraintRow>) => void
  remove: () => void
}) {
  const field = fieldId(row)
  const value = valueId(row)
  const single = isSingleValue(row.operator)
  const help = valueHelp(row.operator)
  const valueProblem = problems[value]
  const describedBy = `${value}-hint${valueProblem ? ` ${value}-error` : ''}`
  const setOperator = (operator: string) => {
    const patch: Partial<ConstraintRow> = { operator }
    // Moving between one value and a list keeps what was typed.
    if (isSingleValue(operator) && !single) patch.value = row.value || row.values[0] || row.draft.trim()
    if (!isSingleValue(operator) && single && row.value && row.values.length === 0) patch.values = [row.value]
    // Date operators always read currentTime (the engine ignores the field's name).
    if (operator.startsWith('DATE_') && !row.contextName) patch.contextName = 'currentTime'
    update(patch)
  }
  return (
    <li class="constraint-row" data-constraint={index}>
      <div class="constraint-fields">
        <div class={`field${problems[field] ? ' invalid' : ''}`}>
          <label for={field}>Context field</label>
          <input
            id={field}
            list="context-fields"
            value={row.contextName}
            placeholder="userId"
            spellcheck={false}
            autocomplete="off"
            aria-invalid={problems[field] ? true : undefined}
            aria-describedby={problems[field] ? `${field}-error` : undefined}
            onInput={(e) => update({ contextName: e.currentTarget.value })}
          />
          {problems[field] && (
            <p class="field-error" id={`${field}-error`}>
              {problems[field]}
            </p>
          )}
        </div>
        <div class="field">
          <label for={`constraint-${row.key}-operator`}>Operator</label>
          <select
            id={`constraint-${row.key}-operator`}
            value={row.operator}
            onChange={(e) => setOperator(e.currentTarget.value)}
          >
            {OPERATOR_GROUPS.map(([label, operators]) => (
              <optgroup key={label} label={label}>
                {operators.map((op) => (
                  <option key={op} value={op}>
                    {OPERATOR_PHRASES[op] ?? op} ({op})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div class={`field${valueProblem ? ' invalid' : ''}`}>
          <label for={value}>{single ? 'Value' : 'Values'}</label>
          {single ? (
            <input
              id={value}
              value={row.value}
              placeholder={help.placeholder}
              spellcheck={false}
              autocomplete="off"
              aria-invalid={valueProblem ? true : undefined}
              aria-describedby={describedBy}
              onInput={(e) => update({ value: e.currentTarget.value })}
            />
          ) : (
            <ListInput
              id={value}
              values={row.values}
              draft={row.draft}
              placeholder={help.placeholder}
              invalid={Boolean(valueProblem)}
              describedBy={describedBy}
              onChange={(values, draft) => update({ values, draft })}
            />
          )}
          <p class="hint" id={`${value}-hint`}>
            {help.hint}
          </p>
          {valueProblem && (
            <p class="field-error" id={`${value}-error`}>
              {valueProblem}
            </p>
          )}
        </div>
      </div>
      <div class="constraint-options">
        <label class="checkbox">
          <input
            type="checkbox"
            checked={row.inverted}
            onChange={(e) => update({ inverted: e.currentTarget.checked })}
          />{' '}
          NOT: match when this is false
        </label>
        {takesCaseInsensitive(row.operator) && (
          <label class="checkbox">
            <input
              type="checkbox"
              checked={row.caseInsensitive}
              onChange={(e) => update({ caseInsensitive: e.currentTarget.checked })}
            />{' '}
            Ignore case
          </label>
        )}
        <Button
          size="small"
          variant="ghost"
          aria-label={`Remove constraint ${index + 1}${row.contextName ? ` on ${row.contextName}` : ''}`}
          onClick={remove}
        >
          Remove
        </Button>
      </div>
    </li>
  )
}

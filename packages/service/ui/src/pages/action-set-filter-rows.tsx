import { FILTER_OPERATORS } from '@vexil/service/admin-rules'
import { Button, Empty, Field } from '../components/controls.tsx'
import { type FilterRow, isSingleValue, type Problems } from './action-set-form-model.ts'

/** An action set's payload filters, one row each: field path, operator, value(s), options. */
export function FilterRows({
  filters,
  problems,
  onChange,
}: {
  filters: FilterRow[]
  problems: Problems
  onChange: (filters: FilterRow[]) => void
}) {
  const updateFilter = (key: number, patch: Partial<FilterRow>) =>
    onChange(filters.map((f) => (f.key === key ? { ...f, ...patch } : f)))
  return filters.length === 0 ? (
    <Empty>No filters: every signal from the endpoint runs the actions.</Empty>
  ) : (
    <ol class="filter-rows">
      {filters.map((f, i) => (
        <li key={f.key} class="filter-row" data-filter={i}>
          <div class="filter-fields">
            <Field id={`filter-${f.key}`} label="Field path" error={problems[`filter-${f.key}`]}>
              <input
                id={`filter-${f.key}`}
                list="payload-paths"
                value={f.path}
                placeholder="data.severity"
                spellcheck={false}
                aria-invalid={problems[`filter-${f.key}`] ? true : undefined}
                onInput={(e) => updateFilter(f.key, { path: e.currentTarget.value })}
              />
            </Field>
            <Field id={`operator-${f.key}`} label="Operator">
              <select
                id={`operator-${f.key}`}
                value={f.operator}
                onChange={(e) => updateFilter(f.key, { operator: e.currentTarget.value })}
              >
                {FILTER_OPERATORS.map((op) => (
                  <option key={op} value={op}>
                    {op}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`values-${f.key}`} label={isSingleValue(f.operator) ? 'Value' : 'Values (comma-separated)'}>
              <input
                id={`values-${f.key}`}
                value={f.values}
                onInput={(e) => updateFilter(f.key, { values: e.currentTarget.value })}
              />
            </Field>
          </div>
          <div class="filter-options">
            <label class="checkbox">
              <input
                type="checkbox"
                checked={f.inverted}
                onChange={(e) => updateFilter(f.key, { inverted: e.currentTarget.checked })}
              />{' '}
              Negate (NOT)
            </label>
            {f.operator.startsWith('STR_') && (
              <label class="checkbox">
                <input
                  type="checkbox"
                  checked={f.caseInsensitive}
                  onChange={(e) => updateFilter(f.key, { caseInsensitive: e.currentTarget.checked })}
                />{' '}
                Ignore case
              </label>
            )}
            <Button
              size="small"
              variant="ghost"
              aria-label={`Remove the filter on ${f.path || 'an empty path'}`}
              onClick={() => onChange(filters.filter((x) => x.key !== f.key))}
            >
              Remove
            </Button>
          </div>
        </li>
      ))}
    </ol>
  )
}

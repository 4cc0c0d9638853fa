// A list of values typed one at a time (user ids, addresses, a constraint's values): Enter or a
// comma adds what is typed, each value is a chip with its own remove button. What is typed but
// not added yet still counts (constraints-model.ts: withDraft), so nothing is lost on save.
import { splitEntries } from './constraints-model.ts'

export function ListInput({
  id,
  values,
  draft,
  onChange,
  placeholder,
  invalid,
  describedBy,
  noun = 'value',
}: {
  id: string
  values: string[]
  draft: string
  onChange: (values: string[], draft: string) => void
  placeholder?: string
  invalid?: boolean
  describedBy?: string
  /** What one entry is, for the remove buttons' labels ("Remove user id alice"). */
  noun?: string
}) {
  const add = (text: string, keep = '') => {
    const added = splitEntries(text).filter((v) => !values.includes(v))
    onChange([...values, ...new Set(added)], keep)
  }
  const onInput = (text: string) => {
    // A comma (typed or pasted) adds everything before the last one.
    const cut = Math.max(text.lastIndexOf(','), text.lastIndexOf('\n'))
    if (cut >= 0) add(text.slice(0, cut), text.slice(cut + 1))
    else onChange(values, text)
  }
  return (
    <div class={`list-input${invalid ? ' invalid' : ''}`}>
      {values.length > 0 && (
        <ul class="chips" aria-label={`${noun}s added`}>
          {values.map((value) => (
            <li key={value} class="chip-value">
              <span>{value}</span>
              <button
                type="button"
                aria-label={`Remove ${noun} ${value}`}
                title="Remove"
                onClick={() =>
                  onChange(
                    values.filter((v) => v !== value),
                    draft,
                  )
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        value={draft}
        placeholder={placeholder}
        spellcheck={false}
        autocomplete="off"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onInput(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return
          // Enter adds the value; it does not submit the form.
          e.preventDefault()
          if (draft.trim()) add(draft)
        }}
        onBlur={() => {
          if (draft.trim()) add(draft)
        }}
      />
    </div>
  )
}

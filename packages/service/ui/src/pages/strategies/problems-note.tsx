import { useEffect, useRef } from 'preact/hooks'
import type { Problems } from './constraints-model.ts'

/**
 * Why a form was not saved: each problem still open, linking to its field. Takes focus when it
 * appears (as ErrorNote does), and goes away once everything is fixed.
 */
export function ProblemsNote({ problems, attempt }: { problems: Problems; attempt: number }) {
  const ref = useRef<HTMLDivElement>(null)
  const entries = Object.entries(problems)
  // Each refused save (a new `attempt`) brings focus back, even with the same problems.
  useEffect(() => {
    if (attempt > 0) ref.current?.focus()
  }, [attempt])
  if (attempt === 0 || entries.length === 0) return null
  return (
    <div class="error-note problems-note" role="alert" tabIndex={-1} ref={ref} data-error="problems">
      <strong>Not saved:</strong>{' '}
      {entries.length === 1 ? 'one thing to fix first.' : `${entries.length} things to fix first.`}
      <ul>
        {entries.map(([id, message]) => (
          <li key={id}>
            <a
              href={`#${id}`}
              onClick={(e) => {
                e.preventDefault()
                document.getElementById(id)?.focus()
              }}
            >
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}

// Pages loaded on first visit: their code (and the engine, for the playground and the strategy
// editor) stays out of the first load, which must stay small (test/ui-bundle.test.ts).
import type { ComponentType, JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ApiError } from '../api.ts'
import { Button, Loading } from './controls.tsx'
import { ErrorNote } from './error-note.tsx'

/** A component that renders `load()`'s component once loaded (kept for later visits). */
export function lazyPage<P extends object>(
  what: string,
  load: () => Promise<ComponentType<P>>,
): (props: P) => JSX.Element {
  let loaded: ComponentType<P> | undefined
  return function LazyPage(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded)
    const [failed, setFailed] = useState<ApiError>()
    const [attempt, setAttempt] = useState(0)
    useEffect(() => {
      if (loaded) return
      let current = true
      load().then(
        (found) => {
          loaded = found
          if (current) setComponent(() => found)
        },
        (error: unknown) => {
          if (current)
            setFailed(
              new ApiError(
                0,
                'NetworkError',
                `The ${what} page could not be loaded (${error instanceof Error ? error.message : String(error)}). Check the connection, then try again.`,
              ),
            )
        },
      )
      return () => void (current = false)
    }, [attempt])
    if (component) {
      const Page = component
      return <Page {...props} />
    }
    if (failed) {
      return (
        <div class="page">
          <ErrorNote error={failed} />
          <div>
            <Button
              variant="primary"
              onClick={() => {
                setFailed(undefined)
                setAttempt(attempt + 1)
              }}
            >
              Try again
            </Button>
          </div>
        </div>
      )
    }
    return (
      <div class="page">
        <Loading what={`the ${what} page`} />
      </div>
    )
  }
}

import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, request } from '../api.ts'
import { Button, Field } from '../components/controls.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { useAction, useTitle } from '../hooks.ts'
import type { Me } from '../types.ts'

/**
 * Sign in with an admin API token or a personal access token: "who am I"
 * (`GET /api/admin/user`) checks it before it is kept, for this browser tab only.
 */
export function SignInPage({
  message,
  onSignedIn,
}: {
  message: string | undefined
  onSignedIn: (token: string, me: Me) => void
}) {
  useTitle('Sign in')
  const [token, setToken] = useState('')
  const [reveal, setReveal] = useState(false)
  const action = useAction()
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  // Preact's types tie an input's role to a fixed type; Show/Hide switches it on the element.
  useEffect(() => {
    if (input.current) input.current.type = reveal ? 'text' : 'password'
  }, [reveal])

  const submit = (event: Event) => {
    event.preventDefault()
    const candidate = token.trim()
    void action.run(async () => {
      if (!candidate) throw new ApiError(400, 'ValidationError', 'Paste a token first.')
      try {
        onSignedIn(candidate, await request<Me>(candidate, 'GET', '/api/admin/user'))
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) {
          throw new ApiError(
            403,
            error.name,
            `This token can't sign in here: it is not an admin token or a personal access token (a client token belongs in an SDK). ${error.message}`,
          )
        }
        throw error
      }
    })
  }

  return (
    <main class="signin">
      <form class="card signin-card" onSubmit={submit} noValidate>
        <div class="signin-brand">
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <h1>Sign in to Vexil</h1>
        </div>
        {message && (
          <p class="notice" role="status">
            {message}
          </p>
        )}
        <Field
          id="token"
          label="Admin token or personal access token"
          hint="Kept in this browser tab only (session storage) and sent as the Authorization header of each request."
        >
          <div class="input-with-button">
            <input
              ref={input}
              id="token"
              name="token"
              type="password"
              autoComplete="off"
              spellcheck={false}
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
              aria-invalid={action.error ? true : undefined}
              aria-describedby="token-hint"
              placeholder="*:*.a1b2c3… or user:…"
            />
            <Button size="small" variant="ghost" onClick={() => setReveal(!reveal)} aria-pressed={reveal}>
              {reveal ? 'Hide' : 'Show'}
            </Button>
          </div>
        </Field>
        <ErrorNote error={action.error} />
        <Button type="submit" variant="primary" busy={action.busy} class="wide">
          Sign in
        </Button>
        <p class="hint">
          Running <code>npm start</code>? It prints a demo admin token.
        </p>
      </form>
    </main>
  )
}

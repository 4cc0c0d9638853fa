// The playground: evaluate every flag of an environment for a context, in the browser, with the
// same engine the proxy and the SDK payload use (this module is the only one that imports it, so
// it loads with this page), and show why each flag has its result (explainAll from @vexil/engine/explain).
import { useEffect, useState } from 'preact/hooks'
import { type Context, createEngine, type EngineWarning } from '@vexil/engine'
import { explainAll, type FlagExplanation } from '@vexil/engine/explain'
import { seg, useApi } from '../../api.ts'
import { Button, Card, Empty, Field, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { Time } from '../../components/time.tsx'
import { useAction, useLoad, useTitle } from '../../hooks.ts'
import { ContextForm } from './context-form.tsx'
import { recentChoices, withEnvironment } from './recent-contexts.ts'
import { summary } from './context-model.ts'
import { Results } from './results.tsx'
import './playground.css'

interface Environment {
  name: string
  enabled: boolean
  sortOrder: number
}

interface RecentContext {
  context: Context
  lastUsedAt: string
}

interface Evaluation {
  environment: string
  context: Context
  explanations: FlagExplanation[]
  warnings: EngineWarning[]
}

export function PlaygroundPage() {
  useTitle('Playground')
  const api = useApi()
  const environments = useLoad(
    async () => (await api.get<{ environments: Environment[] }>('/api/admin/environments')).environments,
    [],
  )
  const recent = useLoad(
    async () => (await api.get<{ contexts: RecentContext[] }>('/api/admin/playground/contexts')).contexts,
    [],
  )
  const [environment, setEnvironment] = useState('')
  const [hostname, setHostname] = useState('')
  const [picked, setPicked] = useState<{ context: Context; seq: number }>()
  const [evaluation, setEvaluation] = useState<Evaluation>()
  const evaluate = useAction()
  const remember = useAction()

  // The first enabled environment until one is chosen.
  useEffect(() => {
    if (environment || !environments.data) return
    const first =
      [...environments.data].sort((a, b) => a.sortOrder - b.sortOrder).find((e) => e.enabled) ?? environments.data[0]
    if (first) setEnvironment(first.name)
  }, [environments.data])

  const run = async (context: Context) => {
    const ok = await evaluate.run(async () => {
      // What a client token of all projects gets in that environment (contract B.1), evaluated here.
      const payload = await api.get<unknown>(`/api/admin/playground/features?environment=${seg(environment)}`)
      const engine = createEngine({ hostname: hostname.trim() || undefined })
      const warnings = engine.load(payload)
      setEvaluation({ environment, context, explanations: explainAll(engine, context), warnings })
    })
    if (!ok) return
    await remember.run(async () => {
      await api.post('/api/admin/playground/contexts', { context: withEnvironment(context, environment) })
      await recent.reload()
    })
  }

  return (
    <div class="page playground">
      <div class="page-header">
        <h1>Playground</h1>
      </div>
      <p class="lead">
        Evaluate every flag of an environment for a context, as an SDK or the proxy would, and see why each is on or
        off: which strategy matched, which constraint failed and the value it saw, the rollout bucket, the variant and
        its stickiness.
      </p>
      <div class="pg-layout">
        <Card title="Context" id="pg-context">
          <ErrorNote error={environments.error} />
          <div class="form-grid pg-settings">
            <Field id="pg-environment" label="Environment">
              {environments.data ? (
                <select id="pg-environment" value={environment} onChange={(e) => setEnvironment(e.currentTarget.value)}>
                  {environments.data.map((e) => (
                    <option key={e.name} value={e.name}>
                      {e.name}
                      {e.enabled ? '' : ' (disabled)'}
                    </option>
                  ))}
                </select>
              ) : (
                <select id="pg-environment" disabled>
                  <option>Loading…</option>
                </select>
              )}
            </Field>
            <Field
              id="pg-hostname"
              label="Host name"
              hint="What applicationHostname compares with: the SDK's host. Not part of the context."
            >
              <input
                id="pg-hostname"
                value={hostname}
                placeholder="e.g. web-01"
                autoComplete="off"
                spellcheck={false}
                aria-describedby="pg-hostname-hint"
                onInput={(e) => setHostname(e.currentTarget.value)}
              />
            </Field>
          </div>
          <ContextForm busy={evaluate.busy} onEvaluate={(context) => void run(context)} picked={picked} />
          <ErrorNote error={evaluate.error} />
          <ErrorNote error={remember.error} focus={false} class="pg-remember-error" />
        </Card>
        <Card title="Recent contexts" id="pg-recent">
          <ErrorNote error={recent.error} focus={false} />
          {!recent.data ? (
            !recent.error && <Loading what="recent contexts" />
          ) : recent.data.length === 0 ? (
            <Empty>Contexts you evaluate appear here.</Empty>
          ) : (
            <ul class="pg-recent">
              {recentChoices(recent.data).map((r) => (
                <li key={r.key}>
                  <Button
                    size="small"
                    variant="ghost"
                    class="pg-recent-use"
                    onClick={() => {
                      if (r.environment && environments.data?.some((e) => e.name === r.environment))
                        setEnvironment(r.environment)
                      setPicked({ context: r.context, seq: (picked?.seq ?? 0) + 1 })
                    }}
                  >
                    <span class="pg-recent-text">
                      {summary(r.context)}
                      {r.environment && <span class="muted"> in {r.environment}</span>}
                    </span>
                  </Button>
                  <span class="muted small">
                    <Time iso={r.lastUsedAt} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      <Card
        title={evaluation ? `Results for ${summary(evaluation.context)}` : 'Results'}
        id="pg-results"
        class="pg-results-card"
      >
        {!evaluation ? (
          <Empty>Enter a context and choose Evaluate.</Empty>
        ) : (
          <>
            {evaluation.warnings.length > 0 && (
              <details class="pg-warnings">
                <summary>
                  The engine warned about {evaluation.warnings.length} problem
                  {evaluation.warnings.length === 1 ? '' : 's'} in the payload
                </summary>
                <ul>
                  {evaluation.warnings.map((w, i) => (
                    <li key={i}>
                      {w.flag ? (
                        <>
                          <code>{w.flag}</code>:{' '}
                        </>
                      ) : null}
                      {w.message}
                    </li>
                  ))}
                </ul>
              </details>
            )}
            <Results explanations={evaluation.explanations} environment={evaluation.environment} />
          </>
        )}
      </Card>
    </div>
  )
}

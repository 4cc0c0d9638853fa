// WHY a flag has its result for the context: the engine's explanation (@vexil/engine/explain), drawn.
import type { ComponentChildren } from 'preact'
import type {
  ConstraintExplanation,
  DependencyExplanation,
  FlagExplanation,
  StrategyExplanation,
  StrategyTestExplanation,
  VariantExplanation,
} from '@vexil/engine/explain'
import { strategyKindLabel, strategyLabel } from '../strategies/strategy-labels.ts'
import { Badge } from '../../components/controls.tsx'

const quoted = (value: string | null) =>
  value === null ? <em class="muted">missing</em> : <code>{JSON.stringify(value)}</code>

/** ✓ or ✗ with its meaning in words (not colour alone). */
function Verdict({ ok, yes = 'matched', no = 'no match' }: { ok: boolean | null; yes?: string; no?: string }) {
  if (ok === null) return <Badge>not evaluated</Badge>
  return <Badge tone={ok ? 'good' : 'bad'}>{ok ? `✓ ${yes}` : `✗ ${no}`}</Badge>
}

function outcomeSentence(e: FlagExplanation, environment: string): ComponentChildren {
  switch (e.outcome) {
    case 'not-found':
      return "Not in this environment's payload."
    case 'invalid':
      return <>The engine could not read this flag ({e.invalid}): it is always off.</>
    case 'disabled':
      return <>Off: the flag is disabled in {environment}, so nothing else is checked.</>
    case 'dependency-unmet':
      return 'Off: a flag it depends on does not have the state it needs.'
    case 'no-strategies':
      return 'On: the flag is enabled and has no strategies, so it is on for everyone.'
    case 'strategy-matched':
      return (
        <>
          On: strategy {e.matchedStrategy! + 1} ({strategyLabel(e.strategies[e.matchedStrategy!]!)}) matched; the
          strategies are checked in order and the first match wins.
        </>
      )
    case 'no-strategy-matched':
      return 'Off: the flag is enabled, but none of its strategies matched.'
    case 'error':
      return <>Error: {e.error}</>
  }
}

function Constraint({ c }: { c: ConstraintExplanation }) {
  const literal = c.values.length > 0 ? `[${c.values.join(', ')}]` : c.value !== null ? c.value : '[]'
  return (
    <li class={`pg-constraint${c.result === false ? ' failed' : ''}`}>
      <span class="pg-line">
        <code>{c.contextName}</code> {c.inverted && <span class="operator">NOT</span>}{' '}
        <span class="operator">{c.operator}</span> <code class="wrap">{literal}</code>
        {c.caseInsensitive && <Badge>case-insensitive</Badge>}
      </span>
      <span class="pg-line">
        saw {quoted(c.seen)} <Verdict ok={c.result} yes="true" no="false" />
      </span>
      {c.warning && <p class="pg-warning">{c.warning.message}</p>}
    </li>
  )
}

function Test({ test }: { test: StrategyTestExplanation }) {
  switch (test.type) {
    case 'default':
      return (
        <p class="pg-line">
          Default strategy: on for everyone who gets here. <Verdict ok={test.result} />
        </p>
      )
    case 'rollout':
      return (
        <div class="pg-rollout">
          <p class="pg-line">
            Rollout {test.percentage === null ? <em>not a number</em> : <strong>{test.percentage} %</strong>} ·
            stickiness <code>{test.stickiness}</code>
            {test.stickinessUsed !== null && test.stickinessUsed !== test.stickiness && (
              <>
                {' '}
                → used <code>{test.stickinessUsed}</code>
              </>
            )}{' '}
            · group <code class="wrap">{test.groupId}</code>
          </p>
          <p class="pg-line" data-testid="rollout-bucket">
            {test.bucket !== null ? (
              <>
                {test.stickinessUsed} {quoted(test.stickinessValue)} → bucket <strong>{test.bucket}</strong> of 100{' '}
                {test.percentage !== null && (test.bucket <= test.percentage ? '≤' : '>')} {test.percentage}
              </>
            ) : test.stickinessUsed === 'random' ? (
              'A random draw each time (no stickiness value).'
            ) : test.stickinessUsed === null && test.percentage !== null && test.percentage > 0 ? (
              <>{test.stickiness} is missing from the context: off.</>
            ) : (
              'Never on.'
            )}{' '}
            <Verdict ok={test.result} />
          </p>
        </div>
      )
    case 'userWithId':
      return (
        <p class="pg-line">
          userId {quoted(test.seen)} in <code class="wrap">[{test.userIds.join(', ')}]</code>{' '}
          <Verdict ok={test.result} yes="listed" no="not listed" />
        </p>
      )
    case 'remoteAddress':
      return (
        <p class="pg-line">
          remoteAddress {quoted(test.seen)} in <code class="wrap">[{test.ips.join(', ')}]</code>{' '}
          <Verdict ok={test.result} yes="listed" no="not listed" />
        </p>
      )
    case 'applicationHostname':
      return (
        <p class="pg-line">
          Host name <code>{test.hostname}</code> in <code class="wrap">[{test.hostNames.join(', ')}]</code>{' '}
          <Verdict ok={test.result} yes="listed" no="not listed" />
        </p>
      )
    case 'custom':
      return (
        <p class="pg-line">
          A custom strategy: the engine here does not have its code. <Verdict ok={test.result} />
        </p>
      )
    case 'unknown':
      return (
        <p class="pg-line">
          Unknown strategy: it never matches. <Verdict ok={test.result} />
        </p>
      )
  }
}

function Strategy({ s, index, matched }: { s: StrategyExplanation; index: number; matched: boolean }) {
  return (
    <li class={`pg-strategy${matched ? ' matched' : ''}`} data-strategy={index}>
      <div class="pg-strategy-head">
        <h4>
          {index + 1}. {strategyLabel(s)} {s.title && <span class="muted small">({strategyKindLabel(s.name)})</span>}
        </h4>
        {s.disabled && <Badge tone="warn">disabled</Badge>}
        <Verdict ok={s.matched} />
      </div>
      {s.failure && <p class="pg-failure">Failed: {s.failure.message}</p>}
      {s.warnings.map((w) => (
        <p class="pg-warning" key={w.message}>
          {w.message}
        </p>
      ))}
      {s.constraints.length > 0 && (
        <ul class="pg-constraints" aria-label="Constraints">
          {s.constraints.map((c, i) => (
            <Constraint key={i} c={c} />
          ))}
        </ul>
      )}
      {s.segments.map((segment, i) => (
        <div class="pg-segment" key={i}>
          <p class="pg-line">
            Segment <strong>{segment.name ?? segment.id}</strong>{' '}
            {!segment.found && <Badge tone="bad">does not exist</Badge>} <Verdict ok={segment.matched} />
          </p>
          {segment.constraints.length > 0 && (
            <ul class="pg-constraints" aria-label={`Constraints of segment ${segment.name ?? segment.id}`}>
              {segment.constraints.map((c, j) => (
                <Constraint key={j} c={c} />
              ))}
            </ul>
          )}
        </div>
      ))}
      <Test test={s.test} />
      {!s.evaluated && <p class="muted small">Not evaluated: an earlier strategy matched, or the flag is off.</p>}
    </li>
  )
}

function Dependency({ d }: { d: DependencyExplanation }) {
  const wanted = d.enabled ? (d.variants ? `on with variant ${d.variants.join(' or ')}` : 'on') : 'off'
  return (
    <li class="pg-line">
      Needs <strong>{d.feature}</strong> {wanted}:{' '}
      {d.problem === 'unknown-parent' ? (
        'there is no such flag'
      ) : d.problem === 'parent-has-dependencies' ? (
        'it has dependencies of its own (one level only)'
      ) : d.parent ? (
        <>
          it is {d.parent.enabled ? 'on' : 'off'}
          {d.parent.enabled && (
            <>
              {' '}
              (variant <code>{d.parent.variant}</code>)
            </>
          )}
        </>
      ) : (
        'not checked'
      )}{' '}
      <Verdict ok={d.satisfied} yes="satisfied" no="not satisfied" />
    </li>
  )
}

function VariantPart({ v, chosen }: { v: VariantExplanation; chosen: string }) {
  if (v.source === 'none') {
    const why =
      v.none === 'flag-off'
        ? 'the flag is off for this context'
        : v.none === 'no-variants'
          ? 'the flag has no variants'
          : 'no variant has a weight'
    return (
      <p class="pg-line">
        No variant ({chosen}): {why}.{v.strategyVariantsUnusable && " The matched strategy's variants all weigh 0."}
      </p>
    )
  }
  return (
    <div class="pg-variant">
      <p class="pg-line">
        Variant <strong>{v.chosen}</strong> from the{' '}
        {v.source === 'strategy' ? "matched strategy's variants" : "flag's variants"}
        {v.strategyVariantsUnusable && " (the matched strategy's variants all weigh 0)"}.
      </p>
      {v.override ? (
        <p class="pg-line">
          Override: <code>{v.override.contextName}</code> is {quoted(v.override.seen)}, listed for{' '}
          <strong>{v.override.variant}</strong>.
        </p>
      ) : (
        <p class="pg-line" data-testid="variant-stickiness">
          Stickiness <code>{v.stickiness}</code>
          {v.stickinessUsed !== v.stickiness && (
            <>
              {' '}
              → used <code>{v.stickinessUsed}</code>
            </>
          )}
          {v.bucket !== null ? (
            <>
              {' '}
              {quoted(v.stickinessValue)} → bucket <strong>{v.bucket}</strong> of {v.totalWeight}
            </>
          ) : (
            ': a random draw each time'
          )}
        </p>
      )}
      <ul class="pg-candidates" aria-label="Variants and their buckets">
        {v.candidates.map((c) => (
          <li key={c.name} class={c.name === v.chosen ? 'chosen' : undefined}>
            <code>{c.name}</code> weight {c.weight}
            {c.from !== null && (
              <span class="muted">
                {' '}
                · buckets {c.from}–{c.to}
              </span>
            )}
            {c.name === v.chosen && <Badge tone="good">chosen</Badge>}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The explanation of one flag's result. */
export function Explanation({ e, environment }: { e: FlagExplanation; environment: string }) {
  return (
    <div class="pg-why">
      <p class="pg-outcome">{outcomeSentence(e, environment)}</p>
      {e.random && <p class="notice">This result came from a random draw: evaluating again may differ.</p>}
      {e.dependencies.length > 0 && (
        <section>
          <h3>Dependencies</h3>
          <ul class="pg-list">
            {e.dependencies.map((d) => (
              <Dependency key={d.feature} d={d} />
            ))}
          </ul>
        </section>
      )}
      {e.strategies.length > 0 && (
        <section>
          <h3>Strategies</h3>
          <ol class="pg-strategies">
            {e.strategies.map((s, i) => (
              <Strategy key={i} s={s} index={i} matched={e.matchedStrategy === i} />
            ))}
          </ol>
        </section>
      )}
      <section>
        <h3>Variant</h3>
        <VariantPart v={e.variantExplanation} chosen={e.variant.name} />
      </section>
    </div>
  )
}

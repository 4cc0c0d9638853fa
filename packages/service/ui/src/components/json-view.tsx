import type { JSX } from 'preact'

/** Tokens of pretty-printed JSON: keys, strings, numbers, literals, punctuation. */
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])/g

/** A value pretty-printed as JSON, lightly coloured (text only: Preact escapes it). */
export function JsonView({ value, label }: { value: unknown; label?: string }) {
  const text = JSON.stringify(value, null, 2) ?? String(value)
  const parts: (string | JSX.Element)[] = []
  let last = 0
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index ?? 0
    if (at > last) parts.push(text.slice(last, at))
    const [whole, string, colon, number, literal] = match
    if (string !== undefined) {
      parts.push(<span class={colon ? 'json-key' : 'json-string'}>{string}</span>)
      if (colon) parts.push(colon)
    } else if (number !== undefined) parts.push(<span class="json-number">{number}</span>)
    else if (literal !== undefined) parts.push(<span class="json-literal">{literal}</span>)
    else parts.push(whole)
    last = at + whole.length
  }
  parts.push(text.slice(last))
  return (
    // A block that may scroll is a named region that takes keyboard focus, so that keys can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: scrolling by keyboard needs the focus (WCAG 2.1.1)
    <pre class="json" role="region" aria-label={label} tabIndex={0}>
      {parts}
    </pre>
  )
}

// OFREP's bodies (OpenFeature Remote Evaluation Protocol 0.3.0; docs: packages/proxy/README.md,
// "OpenFeature (OFREP)"). Each result of the engine's `evaluate` is one shared object per outcome
// (engine README, "Evaluation details"), so its JSON item is written once per payload and then
// only concatenated; the bulk answer's strong ETag is folded from the items' fingerprints
// (bodies/fingerprint.ts), equal for equal bodies everywhere.
import type { EvaluationDetails } from '@vexil/engine'
import { FoldedBody, type Fragment, fingerprinted } from '../bodies/fingerprint.js'
import type { SerializedAnswer } from '../bodies/serialize.js'

const items = new WeakMap<EvaluationDetails, Fragment>()

/** One flag's OFREP item: `evaluationSuccess`, or `evaluationFailure` for an error result. */
export function ofrepItem(details: EvaluationDetails): Fragment {
  let made = items.get(details)
  if (made === undefined) {
    made = fingerprinted(itemJson(details))
    items.set(details, made)
  }
  return made
}

/** The bulk answer `{ flags: [...] }` and its strong ETag (`"<bytes in hex>-<16 base64 chars>"`). */
export function ofrepBulk(results: readonly EvaluationDetails[]): SerializedAnswer {
  const folded = new FoldedBody('{"flags":[', ']}')
  for (let i = 0; i < results.length; i++) folded.add(ofrepItem(results[i]!))
  return { body: folded.body(), bytes: folded.bytes, etag: `"${folded.tag()}"` }
}

function itemJson(details: EvaluationDetails): string {
  const key = JSON.stringify(details.flagKey)
  if (details.errorCode !== undefined) {
    return `{"key":${key},"errorCode":"${details.errorCode}","errorDetails":${JSON.stringify(details.errorMessage ?? details.errorCode)}}`
  }
  const variant = details.variant === undefined ? '' : `,"variant":${JSON.stringify(details.variant)}`
  // No `value` (never `null`): the caller's default wins (OFREP's code default, ADR-0006).
  const value = 'value' in details ? `,"value":${JSON.stringify(details.value)}` : ''
  const { enabled, impressionData } = details.flagMetadata as { enabled: boolean; impressionData: boolean }
  return `{"key":${key},"reason":"${details.reason}"${variant}${value},"metadata":{"enabled":${enabled},"impressionData":${impressionData}}}`
}

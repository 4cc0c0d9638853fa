// A variant's payload as the SDKs will read it, for the flag variants and strategy variants forms.

/**
 * Why SDKs could not read `value` as a payload of `type`: a JSON one must parse and a number one
 * be a number. Undefined when fine, when there is no payload type, or when the value is empty
 * (each form decides when an empty payload is a problem).
 */
export function variantPayloadProblem(type: string, value: string): string | undefined {
  if (type === '' || value.trim() === '') return undefined
  if (type === 'json') {
    try {
      JSON.parse(value)
    } catch (error) {
      return `Not valid JSON: ${error instanceof Error ? error.message : String(error)}.`
    }
  }
  if (type === 'number' && !Number.isFinite(Number(value.trim())))
    return 'Not a number: SDKs read this payload as one, such as 42 or 0.5.'
  return undefined
}

// The standard OpenTelemetry variables (the SDK environment specification), read once at start
// into what the exporter and the sampler are given. Tracing is on only when an OTLP endpoint is
// named or OTEL_TRACES_EXPORTER=otlp asks for the default one; without that nothing is loaded.

export type OtlpProtocol = 'http/protobuf' | 'http/json'

export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio'

export interface TracingConfig {
  /** Where spans are posted: the traces endpoint as given, or the base endpoint with `/v1/traces`. */
  url: string
  protocol: OtlpProtocol
  headers: Record<string, string>
  serviceName: string
  resourceAttributes: Record<string, string>
  sampler: SamplerName
  /** The ratio of the `traceidratio` samplers, 0 to 1. */
  samplerRatio: number
}

type Environment = Record<string, string | undefined>

/** Every variable read here, for the commands that warn about variables they do not read. */
export const TRACING_ENVIRONMENT_VARIABLES: readonly string[] = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
]

const DEFAULT_ENDPOINT = 'http://localhost:4318'
const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
]

/** A variable whose value cannot be used; its message names the variable. */
export class TracingConfigError extends Error {
  override readonly name = 'TracingConfigError'
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable} ${detail}`)
  }
}

/** The tracing the environment asks for, or undefined when it asks for none. */
export function tracingConfig(env: Environment, defaultServiceName: string): TracingConfig | undefined {
  if (isTrue(env.OTEL_SDK_DISABLED)) return undefined
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase()
  if (exporter === 'none') return undefined
  if (exporter && exporter !== 'otlp')
    throw new TracingConfigError('OTEL_TRACES_EXPORTER', `must be otlp or none, got "${exporter}"`)
  const tracesEndpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  const endpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT)
  if (!tracesEndpoint && !endpoint && exporter !== 'otlp') return undefined
  const url = tracesEndpoint
    ? checkedUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
    : `${checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`
  const resourceAttributes = keyValues('OTEL_RESOURCE_ATTRIBUTES', env.OTEL_RESOURCE_ATTRIBUTES)
  const sampler = samplerName(env.OTEL_TRACES_SAMPLER)
  return {
    url,
    protocol: protocol(env),
    headers: {
      ...keyValues('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS),
      ...keyValues('OTEL_EXPORTER_OTLP_TRACES_HEADERS', env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    serviceName: nonEmpty(env.OTEL_SERVICE_NAME) ?? resourceAttributes['service.name'] ?? defaultServiceName,
    resourceAttributes,
    sampler,
    samplerRatio: sampler.endsWith('traceidratio') ? ratio(env.OTEL_TRACES_SAMPLER_ARG) : 1,
  }
}

// --- Internal helpers ---

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true'
}

function checkedUrl(variable: string, value: string): string {
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return value
  } catch {}
  throw new TracingConfigError(variable, `must be an http(s) URL, got "${value}"`)
}

function protocol(env: Environment): OtlpProtocol {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL'
  const value = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.toLowerCase()
  if (value === undefined || value === 'http/protobuf') return 'http/protobuf'
  if (value === 'http/json') return 'http/json'
  throw new TracingConfigError(variable, `must be http/protobuf or http/json (OTLP over HTTP), got "${value}"`)
}

function samplerName(value: string | undefined): SamplerName {
  const name = nonEmpty(value)?.toLowerCase() ?? 'parentbased_always_on'
  if ((SAMPLERS as readonly string[]).includes(name)) return name as SamplerName
  throw new TracingConfigError('OTEL_TRACES_SAMPLER', `must be one of ${SAMPLERS.join(', ')}, got "${value}"`)
}

function ratio(value: string | undefined): number {
  const text = nonEmpty(value)
  if (text === undefined) return 1
  const number = Number(text)
  if (Number.isFinite(number) && number >= 0 && number <= 1) return number
  throw new TracingConfigError('OTEL_TRACES_SAMPLER_ARG', `must be a number from 0 to 1, got "${value}"`)
}

/** `key1=value1,key2=value2`, values percent-decoded (the W3C Baggage form the specification uses). */
function keyValues(variable: string, value: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {}
  for (const part of (value ?? '').split(',')) {
    if (!part.trim()) continue
    const equals = part.indexOf('=')
    const key = equals > 0 ? part.slice(0, equals).trim() : ''
    if (!key)
      throw new TracingConfigError(variable, `must be key=value pairs separated by commas, got "${part.trim()}"`)
    try {
      pairs[key] = decodeURIComponent(part.slice(equals + 1).trim())
    } catch {
      throw new TracingConfigError(variable, `has a value that is not percent-encoded: "${part.trim()}"`)
    }
  }
  return pairs
}

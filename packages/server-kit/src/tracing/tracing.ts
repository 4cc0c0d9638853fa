// What a server or its upstream transport asks of tracing, without naming OpenTelemetry: the
// servers import these types only, and the SDK (otel-sdk.ts) is loaded by `startTracing` when the
// environment asks for traces, so a process without OTEL_* variables never loads it.
import type { RequestRecord } from '../request-observer.js'
import { type TracingConfig, tracingConfig } from './tracing-config.js'

export type HeaderValue = string | string[] | undefined

/** A request as it ended: what a span needs of the request observer's record. */
export type ServerRequest = Pick<
  RequestRecord,
  'method' | 'route' | 'status' | 'aborted' | 'startedAtEpochMs' | 'durationMs'
>

/**
 * A span's W3C trace context as headers (`traceparent`; a caller's `tracestate` is never carried
 * on): what a span hands to the work it causes, in this process or another (a cluster's primary).
 */
export type TraceCarrier = Readonly<Record<string, string>>

/**
 * A request's SERVER span started while the request runs, because work it causes (an upstream
 * call) is to be its child; most requests cause none and get theirs after the fact (`serverSpan`).
 */
export interface StartedServerSpan {
  /** The span's context, for the calls the request causes. */
  readonly carrier: TraceCarrier
  /** Ends the span with what the request came to. */
  end(request: ServerRequest): void
}

/** An upstream call in flight: its headers carry the trace to the upstream; `end` closes the span once. */
export interface ClientSpan {
  readonly headers: Record<string, string>
  end(status: number | undefined, error?: unknown): void
}

/** One component's spans (`proxy`, `service`): a SERVER span per request, a CLIENT span per upstream call. */
export interface Tracing {
  /** Records a request that has ended; an incoming `traceparent` in `headers` is its parent. */
  serverSpan(request: ServerRequest, headers: Record<string, HeaderValue>): void
  /** Starts a request's SERVER span now (an incoming `traceparent` in `headers` is its parent). */
  startServerSpan(headers: Record<string, HeaderValue>, startedAtEpochMs: number): StartedServerSpan
  /**
   * Starts the span of an upstream call (`method`, `url`: what is sent). `causes`: the spans of
   * the requests it is made for: one is its parent; several (a batched call) are linked to a new trace.
   */
  clientSpan(method: string, url: string, causes?: readonly TraceCarrier[]): ClientSpan
}

/** The process's one SDK: one exporter, one resource, a tracer per component. */
export interface TracingSdk {
  readonly config: TracingConfig
  tracing(component: string): Tracing
  /** Exports the spans still pending, then stops (a stopping server calls it last). */
  shutdown(): Promise<void>
}

/**
 * The SDK the environment asks for (OTEL_*: tracing-config.ts), loaded and started; undefined,
 * with nothing loaded, when it asks for none. Throws TracingConfigError for a value it cannot use.
 */
export async function startTracing(
  env: Record<string, string | undefined>,
  defaultServiceName: string,
): Promise<TracingSdk | undefined> {
  const config = tracingConfig(env, defaultServiceName)
  if (!config) return undefined
  const { createTracingSdk } = await import('./otel-sdk.js')
  return createTracingSdk(config)
}

/** The start log's line about traces (never the exporter's headers, which may hold a key). */
export function tracingSummary(sdk: TracingSdk): string {
  const { url, protocol, serviceName, sampler } = sdk.config
  return `Exporting traces to ${url} (${protocol}) as service ${serviceName}, sampler ${sampler}`
}

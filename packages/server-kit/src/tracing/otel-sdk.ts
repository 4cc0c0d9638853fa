// The OpenTelemetry SDK behind `Tracing`, loaded only by startTracing (tracing.ts): a tracer
// provider with the configured sampler and resource, spans batched to one OTLP/HTTP exporter,
// and the W3C trace context read from requests and written on upstream calls. A request's span is
// made after the fact from its record, or started early when the request causes an upstream call
// (its context then passed by hand), so no context manager runs on the hot path.
import {
  type Attributes,
  defaultTextMapGetter,
  defaultTextMapSetter,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace'
import type { ClientSpan, ServerRequest, StartedServerSpan, Tracing, TracingSdk } from './tracing.js'
import type { TracingConfig } from './tracing-config.js'

const propagator = new W3CTraceContextPropagator()

export function createTracingSdk(config: TracingConfig): TracingSdk {
  const exporterOptions = { url: config.url, headers: config.headers }
  const exporter =
    config.protocol === 'http/json' ? new JsonExporter(exporterOptions) : new ProtobufExporter(exporterOptions)
  const provider = new TracerProvider({
    resource: defaultResource().merge(
      // The process tells a cluster's primary and workers apart (one service, WORKERS=N processes).
      resourceFromAttributes({
        'process.pid': process.pid,
        ...config.resourceAttributes,
        'service.name': config.serviceName,
      }),
    ),
    sampler: sampler(config),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  })
  return {
    config,
    tracing: (component) => componentTracing(provider.getTracer(`@vexil/${component}`)),
    shutdown: () => withinTime(provider.shutdown(), SHUTDOWN_TIMEOUT_MS),
  }
}

// --- Internal helpers ---

/**
 * How long a stopping server waits for its last spans: a collector that does not answer must not
 * hold the stop (a cluster worker is killed 15 s after it was told to stop).
 */
const SHUTDOWN_TIMEOUT_MS = 5_000

/** `work`, or nothing once `ms` have passed. */
function withinTime(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
    timer.unref?.()
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

function sampler(config: TracingConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio)
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return ratio
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio })
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
  }
}

function componentTracing(tracer: Tracer): Tracing {
  return {
    serverSpan(request, headers) {
      const span = tracer.startSpan(
        spanName(request),
        { kind: SpanKind.SERVER, startTime: request.startedAtEpochMs, attributes: requestAttributes(request) },
        propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter),
      )
      endServerSpan(span, request)
    },
    startServerSpan(headers, startedAtEpochMs): StartedServerSpan {
      const span = tracer.startSpan(
        'request',
        { kind: SpanKind.SERVER, startTime: startedAtEpochMs },
        propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter),
      )
      return {
        carrier: carrierOf(span),
        end(request) {
          span.updateName(spanName(request))
          span.setAttributes(requestAttributes(request))
          endServerSpan(span, request)
        },
      }
    },
    clientSpan(method, url, causes = []): ClientSpan {
      const target = new URL(url)
      // One request's call is its child; a call shared by several belongs to none of them.
      const contexts = causes.map((carrier) => propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter))
      const parent = contexts.length === 1 ? contexts[0] : undefined
      const links: Link[] = []
      if (!parent)
        for (const cause of contexts) {
          const context = trace.getSpanContext(cause)
          if (context) links.push({ context })
        }
      const span = tracer.startSpan(
        `${method} ${target.pathname}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': method,
            // Without the query: a bootstrap URL's may carry a secret.
            'url.full': `${target.origin}${target.pathname}`,
            'server.address': target.hostname,
            'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
          },
          links,
        },
        parent ?? ROOT_CONTEXT,
      )
      let ended = false
      return {
        headers: carrierOf(span),
        end(status, error) {
          if (ended) return
          ended = true
          if (status !== undefined) span.setAttribute('http.response.status_code', status)
          if (error !== undefined || (status !== undefined && status >= 400)) {
            span.setAttribute('error.type', status !== undefined ? String(status) : errorType(error))
            span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined })
          }
          span.end()
        },
      }
    },
  }
}

/** A request's span name: its method and declared route, or its method alone (nothing a caller sends names it). */
function spanName(request: ServerRequest): string {
  return request.route === undefined ? request.method : `${request.method} ${request.route}`
}

function requestAttributes(request: ServerRequest): Attributes {
  const attributes: Attributes = {
    'http.request.method': request.method,
    'http.response.status_code': request.status,
  }
  if (request.route !== undefined) attributes['http.route'] = request.route
  if (request.status >= 500) attributes['error.type'] = String(request.status)
  if (request.aborted) attributes['vexil.request.aborted'] = true
  return attributes
}

function endServerSpan(span: Span, request: ServerRequest): void {
  if (request.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
  span.end(request.startedAtEpochMs + request.durationMs)
}

/** The span's context as W3C headers, without the `tracestate` a caller may have sent. */
function carrierOf(span: Span): Record<string, string> {
  const headers: Record<string, string> = {}
  const context = { ...span.spanContext(), traceState: undefined }
  propagator.inject(trace.setSpanContext(ROOT_CONTEXT, context), headers, defaultTextMapSetter)
  return headers
}

function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.name : 'Error'
}

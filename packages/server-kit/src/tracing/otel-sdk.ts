// The OpenTelemetry SDK behind `Tracing`, loaded only by startTracing (tracing.ts): a tracer
// provider with the configured sampler and resource, spans batched to one OTLP/HTTP exporter,
// and the W3C trace context read from requests and written on upstream calls. Spans are made
// after the fact from each request's record, so no context manager runs on the hot path.
import {
  type Attributes,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
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
import type { ClientSpan, ServerRequest, Tracing, TracingSdk } from './tracing.js'
import type { TracingConfig } from './tracing-config.js'

const propagator = new W3CTraceContextPropagator()

export function createTracingSdk(config: TracingConfig): TracingSdk {
  const exporterOptions = { url: config.url, headers: config.headers }
  const exporter =
    config.protocol === 'http/json' ? new JsonExporter(exporterOptions) : new ProtobufExporter(exporterOptions)
  const provider = new TracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...config.resourceAttributes, 'service.name': config.serviceName }),
    ),
    sampler: sampler(config),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  })
  return {
    config,
    tracing: (component) => componentTracing(provider.getTracer(`@vexil/${component}`)),
    shutdown: () => provider.shutdown(),
  }
}

// --- Internal helpers ---

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
    serverSpan(request: ServerRequest, headers) {
      const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter)
      const attributes: Attributes = {
        'http.request.method': request.method,
        'http.response.status_code': request.status,
      }
      if (request.route !== undefined) attributes['http.route'] = request.route
      if (request.status >= 500) attributes['error.type'] = String(request.status)
      if (request.aborted) attributes['vexil.request.aborted'] = true
      const span = tracer.startSpan(
        request.route === undefined ? request.method : `${request.method} ${request.route}`,
        { kind: SpanKind.SERVER, startTime: request.startedAtEpochMs, attributes },
        parent,
      )
      if (request.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end(request.startedAtEpochMs + request.durationMs)
    },
    clientSpan(method, url): ClientSpan {
      const target = new URL(url)
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
        },
        ROOT_CONTEXT,
      )
      const headers: Record<string, string> = {}
      propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter)
      let ended = false
      return {
        headers,
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

function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.name : 'Error'
}

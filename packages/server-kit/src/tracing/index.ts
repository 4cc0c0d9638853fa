// @vexil/server-kit/tracing: OpenTelemetry traces for both servers, loaded only when the
// OTEL_* variables ask for them. A separate entry, so nothing that imports the package's main
// entry (the Cloudflare Worker's bundle among them) reaches the SDK.
export {
  type ClientSpan,
  type HeaderValue,
  type ServerRequest,
  type StartedServerSpan,
  startTracing,
  type TraceCarrier,
  type Tracing,
  type TracingSdk,
  tracingSummary,
} from './tracing.js'
export {
  type OtlpProtocol,
  type SamplerName,
  TRACING_ENVIRONMENT_VARIABLES,
  type TracingConfig,
  TracingConfigError,
  tracingConfig,
} from './tracing-config.js'

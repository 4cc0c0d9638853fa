// @vexil/server-kit/tracing: the OTEL_* variables as the SDK environment specification reads
// them, and the spans the SDK exports, decoded by an OTLP receiver on 127.0.0.1.
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest'
import { startTracing, tracingConfig, TracingConfigError, type TracingSdk } from '@vexil/server-kit/tracing'
import { type OtlpReceiver, startOtlpReceiver } from '@vexil/test-fixtures/otlp-receiver.ts'

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c'
const PARENT_ID = 'b7ad6b7169203331'
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`

describe('tracing configuration (OTEL_*)', () => {
  it('asks for nothing without an endpoint or an otlp exporter', () => {
    expect(tracingConfig({}, 'vexil')).toBeUndefined()
    expect(tracingConfig({ OTEL_SERVICE_NAME: 'edge-a' }, 'vexil')).toBeUndefined()
  })

  it('is off when the SDK is disabled or the exporter is none, whatever else is set', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }
    expect(tracingConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }, 'vexil')).toBeUndefined()
    expect(tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }, 'vexil')).toBeUndefined()
  })

  it('posts to the base endpoint with /v1/traces, or to the traces endpoint as given', () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, 'vexil')?.url).toBe(
      'http://collector:4318/v1/traces',
    )
    expect(
      tracingConfig(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/ingest',
        },
        'vexil',
      )?.url,
    ).toBe('https://traces.example/ingest')
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp' }, 'vexil')?.url).toBe('http://localhost:4318/v1/traces')
  })

  it('reads the protocol, headers, sampler, service name and resource attributes', () => {
    const config = tracingConfig(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b,x-team=flags',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=from-resource',
      },
      'vexil',
    )
    expect(config).toMatchObject({
      protocol: 'http/json',
      headers: { 'api-key': 'a b', 'x-team': 'flags' },
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      serviceName: 'from-resource',
      resourceAttributes: { 'deployment.environment': 'prod' },
    })
    const defaults = tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'vexil-proxy')
    expect(defaults).toMatchObject({
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      serviceName: 'vexil-proxy',
    })
  })

  it.each([
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4317'],
    ['OTEL_TRACES_EXPORTER', 'zipkin'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'no-equals-sign'],
  ])('refuses %s=%s, naming the variable', (variable, value) => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      [variable]: value,
    }
    expect(() => tracingConfig(env, 'vexil')).toThrow(TracingConfigError)
    expect(() => tracingConfig(env, 'vexil')).toThrow(variable)
  })

  it('loads no SDK when nothing asks for traces', async () => {
    expect(await startTracing({}, 'vexil')).toBeUndefined()
  })
})

describe('spans over OTLP/HTTP', () => {
  let receiver: OtlpReceiver
  let sdk: TracingSdk | undefined
  beforeAll(async () => {
    receiver = await startOtlpReceiver()
  })
  afterEach(async () => {
    await sdk?.shutdown()
    sdk = undefined
    receiver.exports.length = 0
  })
  afterAll(() => receiver.close())

  it('exports a SERVER span under the incoming traceparent and a CLIENT span whose traceparent it sends (http/json)', async () => {
    sdk = await startTracing(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=secret',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
      },
      'vexil-test',
    )
    const tracing = sdk!.tracing('proxy')
    tracing.serverSpan(
      { method: 'GET', route: '/proxy', status: 200, aborted: false, startedAtEpochMs: Date.now() - 5, durationMs: 5 },
      { traceparent: TRACEPARENT },
    )
    const call = tracing.clientSpan('GET', 'http://127.0.0.1:4242/api/client/features?project=x')
    expect(call.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    call.end(503)
    await sdk!.shutdown()

    expect(receiver.exports[0]!.path).toBe('/v1/traces')
    expect(receiver.exports[0]!.headers['x-api-key']).toBe('secret')
    const spans = receiver.spans()
    const server = spans.find((span) => span.kind === 2)!
    expect(server).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: PARENT_ID,
      name: 'GET /proxy',
      scope: '@vexil/proxy',
      attributes: { 'http.request.method': 'GET', 'http.route': '/proxy', 'http.response.status_code': 200 },
    })
    expect(server.resource).toMatchObject({ 'service.name': 'vexil-test', 'deployment.environment': 'test' })
    const client = spans.find((span) => span.kind === 3)!
    expect(call.headers.traceparent).toBe(`00-${client.traceId}-${client.spanId}-01`)
    expect(client).toMatchObject({
      name: 'GET /api/client/features',
      attributes: {
        'http.request.method': 'GET',
        'url.full': 'http://127.0.0.1:4242/api/client/features',
        'server.address': '127.0.0.1',
        'server.port': 4242,
        'http.response.status_code': 503,
        'error.type': '503',
      },
      status: { code: 2 },
    })
  })

  it('starts a SERVER span early whose context parents the call it causes; a call shared by several links them', async () => {
    sdk = await startTracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      'vexil-test',
    )
    const tracing = sdk!.tracing('proxy')
    const startedAtEpochMs = Date.now()
    const first = tracing.startServerSpan(
      { traceparent: TRACEPARENT, tracestate: 'vendor=caller-chosen' },
      startedAtEpochMs,
    )
    // What a caller put in tracestate is not carried on to the calls its request causes.
    expect(first.carrier).not.toHaveProperty('tracestate')
    const second = tracing.startServerSpan({}, startedAtEpochMs)
    const check = tracing.clientSpan('GET', 'http://127.0.0.1:4242/api/frontend/features/x', [first.carrier])
    check.end(404)
    const call = tracing.clientSpan('POST', 'http://127.0.0.1:4242/edge/validate', [first.carrier, second.carrier])
    call.end(200)
    const request = {
      method: 'GET',
      route: '/api/frontend',
      status: 200,
      aborted: false,
      startedAtEpochMs,
      durationMs: 3,
    }
    first.end(request)
    second.end({ ...request, status: 401 })
    await sdk!.shutdown()

    const spans = receiver.spans()
    const servers = spans.filter((span) => span.kind === 2)
    const [firstSpan, secondSpan] = [
      servers.find((span) => span.traceId === TRACE_ID)!,
      servers.find((span) => span.traceId !== TRACE_ID)!,
    ]
    expect(firstSpan).toMatchObject({
      parentSpanId: PARENT_ID,
      name: 'GET /api/frontend',
      attributes: { 'http.route': '/api/frontend', 'http.response.status_code': 200 },
    })
    expect(first.carrier.traceparent).toBe(`00-${TRACE_ID}-${firstSpan.spanId}-01`)
    expect(secondSpan.attributes['http.response.status_code']).toBe(401)
    const child = spans.find((span) => span.kind === 3 && span.name.startsWith('GET'))!
    expect(child).toMatchObject({ traceId: TRACE_ID, parentSpanId: firstSpan.spanId, links: [] })
    const shared = spans.find((span) => span.kind === 3 && span.name === 'POST /edge/validate')!
    expect(shared.parentSpanId).toBeUndefined()
    expect(shared.traceId).not.toBe(TRACE_ID)
    expect(shared.links).toEqual([
      { traceId: TRACE_ID, spanId: firstSpan.spanId },
      { traceId: secondSpan.traceId, spanId: secondSpan.spanId },
    ])
  })

  it('sends protobuf by default, with the trace id among its bytes', async () => {
    sdk = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, 'vexil-test')
    sdk!
      .tracing('service')
      .serverSpan(
        { method: 'POST', route: undefined, status: 404, aborted: false, startedAtEpochMs: Date.now(), durationMs: 1 },
        { traceparent: TRACEPARENT },
      )
    await sdk!.shutdown()
    const [received] = receiver.exports
    expect(received!.contentType).toBe('application/x-protobuf')
    expect(received!.body.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true)
  })

  it('samples nothing with always_off, and still sends a traceparent (unsampled) upstream', async () => {
    sdk = await startTracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'always_off' },
      'vexil-test',
    )
    const call = sdk!.tracing('proxy').clientSpan('POST', 'http://127.0.0.1:4242/api/client/metrics')
    expect(call.headers.traceparent).toMatch(/-00$/)
    call.end(202)
    await sdk!.shutdown()
    expect(receiver.exports).toEqual([])
  })
})

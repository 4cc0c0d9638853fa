// Metrics, registration and the server-side features route (docs/old-proxy-compatibility.md 1.6, 6.2).
import { cachedJson, parameterRef, plainOk, responseRef } from './responses.js'

type Json = Record<string, unknown>

const EITHER_KEY =
  "Accepts one of the proxy's client keys or one of its server-side tokens (`expServerSideSdkConfig.tokens`)."

const jsonBody = (schema: string): Json => ({
  required: true,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
})

// No readiness gate here: metrics are buffered even before the first configuration arrives.
const bodyErrors: Json = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '413': responseRef('PayloadTooLarge'),
  '415': responseRef('UnsupportedMediaType'),
}

function metricsOperation(alias: boolean): Json {
  const description = [
    `Frontend SDKs post their usage counts here; the proxy adds them to its own and sends them upstream every \`metricsInterval\`. ${EITHER_KEY}`,
    'Only flags the proxy currently has are counted, and only the variant names each flag defines (plus `disabled`); other names are accepted and ignored. Counts stop at 2^53 - 1.',
    ...(alias ? ['The same as `/proxy/client/metrics`, for SDKs configured with the url `…/proxy/all`.'] : []),
  ].join('\n\n')
  return {
    tags: ['Operational', 'Server-side client'],
    summary: 'Send usage metrics to Unleash.',
    description,
    requestBody: jsonBody('registerMetricsSchema'),
    responses: { '200': plainOk('text/plain', 'OK'), ...bodyErrors },
  }
}

export function serverSidePaths(): Json {
  return {
    '/proxy/client/metrics': { post: metricsOperation(false) },
    '/proxy/all/client/metrics': { post: metricsOperation(true) },
    '/proxy/client/register': {
      post: {
        tags: ['Operational', 'Server-side client'],
        summary: 'Register clients with Unleash.',
        description: `Validated and accepted, then forwarded upstream with the next usage report, beside the proxy's own registration. ${EITHER_KEY}`,
        requestBody: jsonBody('registerClientSchema'),
        responses: { '200': plainOk('text/plain', 'OK'), ...bodyErrors },
      },
    },
    '/proxy/client/features': {
      get: {
        tags: ['Server-side client'],
        summary: "Retrieve the proxy's current toggle configuration (as consumed by the internal client).",
        description: [
          "Returns the flag definitions the proxy evaluates, upstream's objects verbatim, with the `segments` they refer to. Use it to bootstrap other proxies and server-side SDKs (`url` = `…/proxy`).",
          'Requires one of the server-side tokens (`expServerSideSdkConfig.tokens`, `EXP_SERVER_SIDE_SDK_CONFIG_TOKENS`) in the key header: client keys get 401, and so does everyone when no server-side tokens are configured.',
        ].join('\n\n'),
        parameters: [parameterRef('IfNoneMatch')],
        responses: {
          '200': cachedJson('The current configuration.', 'apiRequestSchema'),
          '304': responseRef('NotModified'),
          '401': responseRef('Unauthorized'),
          '503': responseRef('NotReady'),
        },
      },
    },
  }
}

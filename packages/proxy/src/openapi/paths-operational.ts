// Health and Prometheus: no key needed, but both wait for readiness (docs/old-proxy-compatibility.md 1.2, 1.6).
import { plainOk, responseRef } from './responses.js'

type Json = Record<string, unknown>

export function operationalPaths(): Json {
  return {
    '/proxy/health': {
      get: {
        tags: ['Operational'],
        summary: 'Check whether the proxy is ready to serve requests yet.',
        description:
          'Answers 200 `ok` once the proxy has a configuration (from upstream, a bootstrap or a stored backup), 503 before. No key needed. Under a base path, probes must include it.',
        security: [],
        // text/html, not text/plain: the old proxy's Express default, kept for drop-in parity (spec 4.4).
        responses: { '200': plainOk('text/html', 'ok'), '503': responseRef('NotReady') },
      },
    },
    '/proxy/internal-backstage/prometheus': {
      get: {
        tags: ['Operational'],
        summary: 'Check whether the proxy is up and running',
        description:
          'Answers the Prometheus text exposition format (`unleash_proxy_up` and the last fetch/update timestamps) once the proxy is ready, 503 before. No key needed.',
        security: [],
        responses: {
          '200': {
            description: 'Metrics in the Prometheus text exposition format (`text/plain; version=0.0.4`).',
            content: {
              'text/plain': {
                schema: { type: 'string' },
                example:
                  '# HELP unleash_proxy_up Indication that the service is up.\n# TYPE unleash_proxy_up counter\nunleash_proxy_up 1\n',
              },
            },
          },
          '503': responseRef('NotReady'),
        },
      },
    },
  }
}

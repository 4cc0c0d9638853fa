// @vexil/proxy: the evaluation proxy, a drop-in replacement for the Unleash proxy.

// App and server
export { createProxyApp } from './app.js'
export type { ProxyApp, ProxyAppOptions } from './app.js'

// Routes and who may call them
export { ACCESS_KINDS } from './routing/access.js'
export type { Access } from './routing/access.js'
export type {
  RouteDescription,
  RouteExample,
  RouteHandler,
  RouteInstrument,
  RouteMethod,
} from './routing/route-declaration.js'
export { startProxy } from './server.js'
export type { RunningProxy, StartProxyOptions } from './server.js'
export { runProxyCli } from './cli.js'

// Configuration
export { createProxyConfig, PROXY_ENVIRONMENT_VARIABLES } from './config/parse.js'
export { ConfigError } from './config/values.js'
export type { ContextEnricher, CorsOptions, ProxyConfig, ProxyOptions, ServerTimeouts } from './config/types.js'

// Logging
export { createLogger } from './logger.js'
export type { Logger, LogLevel } from './logger.js'
export type { RequestObserver, RequestRecord } from '@vexil/server-kit'

// Storage
export type { StorageProvider } from './storage/types.js'

// Upstream
export { createHttpUpstream } from './upstream/upstream.js'
export type { Upstream } from './upstream/upstream.js'

// @vexil/service: the upstream flag service (Unleash client and admin APIs over PostgreSQL).

// Run
export { startService } from './server.js'
export type { RunningService, StartServiceOptions } from './server.js'
export { runServiceCli } from './cli.js'
export { createServiceApp } from './app.js'
export type { ServiceAppOptions } from './app.js'

// Configuration
export { ConfigError, parseServiceConfig } from './config.js'
export type { ConfigOverrides, ProxyAddress, ServiceConfig } from './config.js'
export type { Actor, Clock, ServiceContext } from './service-context.js'
export { createConsoleLogger, silentLogger } from './logger.js'
export type { LogLevel, Logger } from './logger.js'

// Database
export { openDatabase } from './db/open.js'
export type { OpenDatabaseOptions } from './db/open.js'
export { createPgliteDatabase } from './db/pglite.js'
export type { PgliteOptions } from './db/pglite.js'
export { createPostgresDatabase } from './db/postgres.js'
export type { PostgresOptions } from './db/postgres.js'
export { appliedVersions, migrate } from './db/migrate.js'
export type { MigrationResult } from './db/migrate.js'
export { MIGRATIONS } from './db/migrations/index.js'
export type { Migration } from './db/migrations/index.js'
export type { Database, Queryable } from './db/database.js'

// Insights
export { createInsightsScheduler } from './insights/scheduler.js'
export type { InsightsScheduler, InsightsSchedulerOptions, InsightsTimers } from './insights/scheduler.js'
export { takeInsightsSnapshot } from './insights/snapshot.js'
export type { InstanceInsights } from './insights/report.js'
// Signals and actions
export { createActionRunner } from './actions/runner.js'
export type { ActionRunner, ActionRunnerOptions } from './actions/runner.js'
export type { SignalConfig } from './signal-config.js'

// Demo
export { DEMO_CREDENTIALS_FILE, seedDemo } from './seed/demo.js'
export type { DemoCredentials } from './seed/demo.js'

// Errors
export { ERROR_STATUS, isServiceError, ServiceError } from './errors.js'
export type { ErrorCode, ErrorDetail } from './errors.js'

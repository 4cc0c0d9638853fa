// VexilProvider: an OpenFeature server provider that evaluates with @vexil/engine in the app's
// process and keeps the flags in step with an Unleash-compatible client API (README). The
// resolve methods are the hot path: map the context, evaluate, count, answer. Nothing is logged,
// and an outcome seen before (the engine shares one details object per flag and outcome) is
// answered with the resolution made for it then: a boolean resolution allocates the context only.
import {
  ErrorCode,
  type EvaluationContext,
  type JsonValue,
  OpenFeatureEventEmitter,
  type Provider,
  ProviderEvents,
  type ResolutionDetails,
} from '@openfeature/server-sdk'
import { createEngine, type Engine, type EvaluationDetails } from '@vexil/engine'
import {
  createFeed,
  createUsageReporter,
  type FlagUsage,
  isPayload,
  type Poller,
  type SyncOutcome,
  type SyncTarget,
  systemTimers,
  type Timers,
  toUnleashContext,
  type UpstreamCandidate,
  type UpstreamClient,
  UsageCounter,
  type UsageReporter,
} from '@vexil/sync'
import { type Backup, createFileBackup } from '@vexil/sync/files'
import { type ChangeTracker, createChangeTracker } from './flag-changes.js'
import { type ProviderConfig, resolveOptions, type VexilProviderOptions } from './options.js'
import { booleanResolution, failure, typedResolution, valueResolution } from './resolution.js'
import { providerLogger } from './sync-logger.js'
import { createUpstream } from './upstream.js'

/** The runtime's timers, none of which keeps the app's process alive. */
const backgroundTimers: Timers = {
  set: (task, ms) => systemTimers.set(task, ms, false),
  clear: (handle) => systemTimers.clear(handle),
}

/** What a boolean resolution of one outcome answers, and where it is counted. */
interface BooleanAnswer {
  promise: Promise<ResolutionDetails<boolean>>
  enabled: boolean
  usage: FlagUsage
}

/** `starting`: initialize has not settled; `running`: status changes are announced as events. */
type Phase = 'idle' | 'starting' | 'running' | 'closed'
/** What the last attempt to reach the upstream said: `error` is a refused client key. */
type Health = 'ok' | 'stale' | 'error'

export class VexilProvider implements Provider {
  readonly metadata = { name: 'vexil' } as const
  readonly runsOn = 'server' as const
  readonly events = new OpenFeatureEventEmitter()

  private readonly engine: Engine
  private readonly appName: string
  private readonly environment: string | undefined
  /** Custom strategies see the context: give them properties converted as the README's table says. */
  private readonly copyContext: boolean
  /** Undefined when metrics are off (metricsInterval 0). */
  private readonly counter: UsageCounter | undefined
  private readonly config: ProviderConfig
  private readonly upstream: UpstreamClient
  private readonly feed: Poller
  private readonly reporter: UsageReporter | undefined
  private readonly backup: Backup | undefined
  private readonly changes: ChangeTracker = createChangeTracker()
  private readonly booleanAnswers = new WeakMap<EvaluationDetails, BooleanAnswer>()
  private readonly resolutions = new WeakMap<EvaluationDetails, ResolutionDetails<unknown>>()
  private loaded = false
  /** Whether the backup file has been given the upstream's flags yet. */
  private backedUp = false
  private phase: Phase = 'idle'
  private health: Health = 'ok'
  private started: Promise<void> | undefined
  /** The ETag and text of the flags held when a poll brought them (undefined after a stream message). */
  private etag: string | undefined
  private text: string | undefined

  constructor(options: VexilProviderOptions) {
    const config = resolveOptions(options)
    this.config = config
    this.engine = createEngine({ strategies: config.strategies })
    this.appName = config.appName
    this.environment = config.environment
    this.copyContext = config.strategies.length > 0
    this.upstream = createUpstream(config)
    this.counter = config.metricsInterval > 0 ? new UsageCounter() : undefined
    this.reporter = this.counter && this.usageReporter(this.counter)
    this.backup =
      config.backupPath !== undefined
        ? createFileBackup(config.backupPath, (message) => config.logger.warn(`VexilProvider: ${message}`))
        : undefined
    // No `logger`: a failed poll is reported (`report`), and logged once per change of state there.
    this.feed = createFeed({
      upstream: this.upstream,
      flags: this.syncTarget(),
      refreshInterval: config.refreshInterval,
      streaming: config.streaming,
      credential: 'the client key',
      onOutcome: (outcome) => this.report(outcome),
      streamLogger: providerLogger(config.logger),
      timers: backgroundTimers,
    })
  }

  // --- Evaluation (the hot path) ---

  resolveBooleanEvaluation(
    flagKey: string,
    defaultValue: boolean,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<boolean>> {
    const details = this.engine.evaluate(
      flagKey,
      toUnleashContext(context, this.appName, this.environment, this.copyContext),
    )
    const answer = this.booleanAnswers.get(details) ?? this.booleanAnswer(details)
    if (answer === undefined) {
      // An error: the caller's default is part of the answer, so it is made for this call.
      this.counter?.count(flagKey, details.toggle.enabled)
      return Promise.resolve(this.failure(details, defaultValue))
    }
    if (answer.enabled) answer.usage.yes++
    else answer.usage.no++
    return answer.promise
  }

  /**
   * The boolean answer to an outcome, made on first sight and kept with the outcome (the engine's
   * details are shared per flag and outcome, so this is a bounded memo): the resolved promise
   * and the flag's usage counts. Undefined for an error.
   */
  private booleanAnswer(details: EvaluationDetails): BooleanAnswer | undefined {
    if (details.errorCode !== undefined) return undefined
    const resolution =
      typeof details.value === 'boolean'
        ? (this.shared(details) as ResolutionDetails<boolean>)
        : booleanResolution(details)
    const answer: BooleanAnswer = {
      promise: Promise.resolve(resolution),
      enabled: details.toggle.enabled,
      usage: this.counter?.usage(details.flagKey) ?? { yes: 0, no: 0, variants: undefined },
    }
    this.booleanAnswers.set(details, answer)
    return answer
  }

  resolveStringEvaluation(
    flagKey: string,
    defaultValue: string,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<string>> {
    return Promise.resolve(this.resolveTyped(flagKey, defaultValue, context, 'string'))
  }

  resolveNumberEvaluation(
    flagKey: string,
    defaultValue: number,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<number>> {
    return Promise.resolve(this.resolveTyped(flagKey, defaultValue, context, 'number'))
  }

  resolveObjectEvaluation<T extends JsonValue>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    return Promise.resolve(this.resolveTyped(flagKey, defaultValue, context, 'object'))
  }

  private resolveTyped<T>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
    type: 'string' | 'number' | 'object',
  ): ResolutionDetails<T> {
    const details = this.engine.evaluate(
      flagKey,
      toUnleashContext(context, this.appName, this.environment, this.copyContext),
    )
    const toggle = details.toggle
    // The app read the variant: counted as unleash-client's getVariant counts it.
    this.counter?.countVariant(flagKey, toggle.enabled, toggle.variant.name)
    return details.errorCode !== undefined
      ? this.failure(details, defaultValue)
      : typedResolution(details, defaultValue, type, this.shared)
  }

  /** The resolution of an outcome with a value, made once per outcome. */
  private readonly shared = (details: EvaluationDetails): ResolutionDetails<unknown> => {
    let resolution = this.resolutions.get(details)
    if (resolution === undefined) this.resolutions.set(details, (resolution = valueResolution(details)))
    return resolution
  }

  /** The engine's error; an unknown flag before any flags were loaded is PROVIDER_NOT_READY. */
  private failure<T>(details: EvaluationDetails, defaultValue: T): ResolutionDetails<T> {
    if (!this.loaded && details.errorCode === 'FLAG_NOT_FOUND')
      return failure(
        details,
        defaultValue,
        ErrorCode.PROVIDER_NOT_READY,
        'VexilProvider has no flags yet: the upstream has not answered',
      )
    return failure(details, defaultValue)
  }

  // --- Lifecycle ---

  /**
   * Resolves after the first successful sync; or, when the upstream cannot be reached or refuses
   * the client key, once the backup file or the bootstrap is being served (then emits Stale, or
   * Error for a refused key). With nothing to serve it rejects, and keeps trying: when the
   * upstream answers, the provider emits Ready.
   */
  initialize(): Promise<void> {
    this.started ??= this.start()
    return this.started
  }

  /** Stops syncing, sends the metrics counted so far and finishes writing the backup. */
  async onClose(): Promise<void> {
    this.phase = 'closed'
    this.feed.stop()
    this.reporter?.stop()
    await this.reporter?.flush()
    await this.backup?.flush()
  }

  private async start(): Promise<void> {
    this.phase = 'starting'
    const fallback = await this.loadFallback()
    this.reporter?.start()
    const outcome = await this.feed.start()
    // Closed while starting.
    if ((this.phase as Phase) === 'closed') return
    this.phase = 'running'
    if (outcome.ok) return
    const { url } = this.config
    if (!fallback)
      throw new Error(
        `VexilProvider: no flags to serve: ${outcome.message} (${url}/client/features). Still trying; the provider emits Ready when the upstream answers.`,
      )
    this.config.logger.warn(`VexilProvider: serving the ${fallback} until the upstream answers: ${outcome.message}`)
    // After the SDK has handled this initialization (it emits Ready when it resolves).
    setImmediate(() => this.announce(outcome))
  }

  /** The backup file, else the bootstrap; returns which one was loaded. */
  private async loadFallback(): Promise<string | undefined> {
    const saved = await this.backup?.read()
    if (isPayload(saved)) {
      this.load(saved, undefined, false)
      return `backup file ${this.config.backupPath}`
    }
    if (this.config.bootstrap) {
      this.load(this.config.bootstrap, undefined, false)
      return 'bootstrap'
    }
    return undefined
  }

  // --- Sync ---

  /** Registration, then the counts every metricsInterval. */
  private usageReporter(counter: UsageCounter): UsageReporter {
    const { upstream, config } = this
    return createUsageReporter({
      upstream,
      aggregator: counter,
      logger: providerLogger(config.logger),
      credential: 'the client key',
      interval: config.metricsInterval,
      jitter: 0,
      timers: backgroundTimers,
    })
  }

  private syncTarget(): SyncTarget {
    const provider = this
    return {
      get current() {
        return { etag: provider.etag }
      },
      offer: (candidate: UpstreamCandidate) => {
        // An identical poll answer changes nothing.
        if (candidate.text !== undefined && candidate.text === this.text) return
        this.load(
          candidate.payload,
          candidate.text !== undefined ? { etag: candidate.etag, text: candidate.text } : undefined,
          true,
        )
      },
    }
  }

  /** Loads a payload; announces the flags it changed and saves them to the backup. */
  private load(
    payload: unknown,
    polled: { etag: string | undefined; text: string } | undefined,
    fromUpstream: boolean,
  ): void {
    const warnings = this.engine.load(payload)
    if (warnings.length > 0) {
      const shown = warnings
        .slice(0, 5)
        .map((warning) => (warning.flag ? `${warning.flag}: ${warning.message}` : warning.message))
      this.config.logger.warn(
        `VexilProvider: ${warnings.length} warning(s) loading flags: ${shown.join('; ')}${warnings.length > 5 ? '; ...' : ''}`,
      )
    }
    this.loaded = true
    // The stream's changes are not what the poller's ETag names: the next poll fetches in full.
    this.etag = polled?.etag
    this.text = polled?.text
    const changed = this.changes(this.engine.getState())
    // The upstream's first flags are saved even when they equal the backup or bootstrap served before.
    if (fromUpstream && this.backup && (changed.length > 0 || !this.backedUp)) {
      this.backedUp = true
      const text = polled?.text
      this.backup.save(text !== undefined ? () => text : () => JSON.stringify(this.engine.getState()))
    }
    if (changed.length > 0 && this.phase === 'running')
      this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: changed })
  }

  private report(outcome: SyncOutcome): void {
    if (this.phase === 'closed') return
    const before = this.health
    this.health = outcome.ok ? 'ok' : outcome.status === 401 || outcome.status === 403 ? 'error' : 'stale'
    if (this.phase !== 'running' || this.health === before) return
    if (!outcome.ok) this.config.logger.warn(`VexilProvider: ${outcome.message}; serving the last good flags`)
    this.announce(outcome)
  }

  /** The event for the current health, if it still is what `outcome` said. */
  private announce(outcome: SyncOutcome): void {
    if (this.phase !== 'running') return
    if (outcome.ok) {
      if (this.health === 'ok') this.events.emit(ProviderEvents.Ready, { message: 'the upstream answers again' })
    } else if (this.health === 'error') {
      this.events.emit(ProviderEvents.Error, { message: outcome.message, errorCode: ErrorCode.GENERAL })
    } else if (this.health === 'stale') {
      this.events.emit(ProviderEvents.Stale, { message: outcome.message })
    }
  }
}

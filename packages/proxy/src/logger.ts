// The proxy logs through @vexil/server-kit's logger, the one the service uses too: the old
// proxy's SimpleLogger text lines (`LEVEL: message args`) or one-line JSON, secrets as `***`.
export { createLogger, LOG_LEVELS, type Logger, type LogLevel, redactingLogger } from '@vexil/server-kit'

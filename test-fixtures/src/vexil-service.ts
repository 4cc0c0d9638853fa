// The Vexil service (@vexil/service) as the cross-package tests run it: on PGlite in a temp
// folder, listening on 127.0.0.1, with the bootstrap tokens the test names, and an admin client
// that follows it across restarts.
import { type RunningService, silentLogger, startService } from '@vexil/service'
import { serviceAdmin } from './service-admin.js'
import { tempDir } from './temp-dir.js'

export interface TestServiceOptions {
  /** INIT_ADMIN_API_TOKENS: the admin token `admin` calls with. */
  adminToken: string
  /** INIT_CLIENT_API_TOKENS, when the test needs a client token made at start. */
  clientToken?: string
  /** Any other variable the service reads. */
  env?: Record<string, string>
}

export interface TestService {
  /** The running service (a new one after `restart`). */
  readonly service: RunningService
  readonly url: string
  /** `(method, path, body?) => parsed JSON` with the admin token; throws on a non-2xx answer. */
  admin: ReturnType<typeof serviceAdmin>
  /** Stops the service and starts it again on the same port and data. */
  restart(): Promise<void>
  /** Stops it and removes its data. */
  close(): Promise<void>
}

/** Starts the service; `name` names its temp folder. */
export async function startTestService(name: string, options: TestServiceOptions): Promise<TestService> {
  const data = tempDir(name)
  const env: Record<string, string> = { INIT_ADMIN_API_TOKENS: options.adminToken, ...options.env }
  if (options.clientToken) env.INIT_CLIENT_API_TOKENS = options.clientToken
  const start = (port: number) =>
    startService({ port, host: '127.0.0.1', dataDir: data.path, logger: silentLogger, env })
  let service = await start(0)
  return {
    get service() {
      return service
    },
    get url() {
      return service.url
    },
    admin: serviceAdmin(() => service.url, options.adminToken),
    async restart() {
      const { port } = service
      await service.close()
      service = await start(port)
    },
    async close() {
      try {
        await service.close()
      } finally {
        data.remove()
      }
    },
  }
}

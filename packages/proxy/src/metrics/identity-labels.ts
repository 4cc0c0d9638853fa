// The two labels Edge puts on its own metrics: its app name and instance id. One value each per
// process (SERVICE_APP_NAME, SERVICE_INSTANCE_ID), so they add no series.
import type { ProxyConfig } from '../config/types.js'

export interface IdentityLabels {
  app_name: string
  instance_id: string
}

export function identityLabels(config: Pick<ProxyConfig, 'serviceAppName' | 'serviceInstanceId'>): IdentityLabels {
  return { app_name: config.serviceAppName, instance_id: config.serviceInstanceId }
}

import { seg } from '../../api.ts'

/** A flag's history page (the flag page, action sets and their runs link here). */
export const flagHistoryPath = (project: string, flag: string) => `/projects/${seg(project)}/flags/${seg(flag)}/history`

/** Where a signal is shown: its endpoint's page, at the list of signals. */
export const signalPath = (endpointId: number) => `/integrations/signal-endpoints/${endpointId}#signals`

// `vexil edge --help`: Edge's command line as docs/CLI.md lays it out, each option with its
// variable and what Vexil does with it, written from the one table (edge-options.ts).
import { EDGE_OPTIONS, type EdgeOption, type EdgePlace } from './edge-options.js'

const SECTIONS: Array<{ title: string; places: readonly EdgePlace[] }> = [
  { title: 'Global options (before the subcommand; those marked * also after it)', places: ['global', 'anywhere'] },
  { title: 'Options of edge (after it)', places: ['edge'] },
  { title: 'Options of offline (after it: vexil offline)', places: ['offline'] },
  { title: 'Options of health and ready (after them: vexil health, vexil ready)', places: ['probe'] },
]

function usage(option: EdgeOption): string {
  const names = option.flag
    ? `${option.short ? `-${option.short}, ` : '    '}${option.flag}${option.switch ? '' : ' <value>'}`
    : '    (variable only)'
  return `${option.place === 'anywhere' ? '*' : ' '} ${names}`
}

/** What Vexil does with the option, in a few words. */
function edgeOptionHandling(option: EdgeOption): string {
  const handling = option.handling
  switch (handling.kind) {
    case 'read': {
      const target =
        handling.to.length === 0 || (handling.to.length === 1 && handling.to[0] === option.variable)
          ? 'read'
          : `read as ${handling.to.join(' and ')}`
      return handling.note ? `${target} (${handling.note})` : target
    }
    case 'command':
      return `read by vexil ${handling.command}`
    case 'warn':
      return `not implemented, a warning at start: ${handling.instead}`
  }
}

export const EDGE_HELP = [
  'Usage: vexil [<global options>] edge [<options>]',
  '       (the vexil-proxy command and the image take the same arguments)',
  '',
  "Runs the proxy configured as Unleash Edge is: Edge's options and variables (every option also",
  'reads its variable, in upper snake case), port 3063 and app name unleash-edge by default.',
  "Vexil's own variables (vexil proxy --help) are read too; Edge's win.",
  ...SECTIONS.flatMap(({ title, places }) => [
    '',
    `${title}:`,
    ...EDGE_OPTIONS.filter((option) => places.includes(option.place)).map(
      (option) => `  ${usage(option).padEnd(44)} ${option.variable}: ${edgeOptionHandling(option)}`,
    ),
  ]),
  '',
  '  -h, --help  Show this help.',
].join('\n')

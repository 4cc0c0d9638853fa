#!/usr/bin/env node
// The vexil command. A file of its own, committed, so that npm links the command at the first
// install, before `prepare` has built dist/.
import '../dist/cli.js'

#!/usr/bin/env node
// Entry point of `npx codebook`: npm puts the project's pinned Node.js first on PATH.
import { runCli } from '../src/cli/main.ts';

process.exitCode = await runCli(process.argv.slice(2));

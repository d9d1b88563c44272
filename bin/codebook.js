#!/usr/bin/env node
// Entry point of `npx codebook`: npm puts the project's pinned Node.js first on PATH.
// The compile cache is on before the CLI's modules load (see src/main.ts).
import { enableCompileCache } from 'node:module';

enableCompileCache();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));

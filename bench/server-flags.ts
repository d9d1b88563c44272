/**
 * The Node.js flags `npm start` gives the server, read from package.json, so
 * the benchmark measures the server exactly as users start it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function serverNodeFlags(root: string): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const match = /^node((?:\s+--\S+)*)\s+src\/main\.js$/.exec(start.trim());
  if (!match) throw new Error(`package.json "start" is not "node [flags] src/main.js": ${start}`);
  return match[1]!.trim() === '' ? [] : match[1]!.trim().split(/\s+/);
}

/**
 * Progress of a long command on stderr: on a terminal, a one-line bar redrawn
 * in place (stage, share done, rows, rows per second); elsewhere (a log, a
 * pipe), a plain line when a stage starts and every few seconds, once the
 * command has run long enough to need one, so a quick import prints nothing.
 */
import type { ImportPhase } from '../services/import/importer.ts';

const WIDTH = 30;
const LABEL: Record<ImportPhase, string> = { read: 'reading', sort: 'sorting', check: 'checking', write: 'writing' };
/** Plain lines: nothing before this much time has passed, then one per stage and at most one per interval. */
const QUIET_MS = 10_000;
const LINE_EVERY_MS = 10_000;

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

function grouped(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

export function progressBar(stream: ProgressStream = process.stderr, clock: () => number = Date.now) {
  const started = clock();
  let lastDraw = 0;
  let drawn = false;
  let stage: ImportPhase | null = null;
  let stageStarted = started;
  let lastLine = 0;
  return {
    // An arrow function: it is handed around as a callback (onProgress: bar.update).
    update: (phase: ImportPhase, done: number, total: number, rows: number = done): void => {
      const now = clock();
      const newStage = phase !== stage;
      if (newStage) {
        stage = phase;
        stageStarted = now;
      }
      const seconds = (now - stageStarted) / 1000;
      const rate = seconds > 0 ? rows / seconds : 0;
      const ratio = total === 0 ? 1 : Math.min(1, done / total);
      const percent = `${String(Math.round(ratio * 100)).padStart(3)}%`;
      const amount = phase === 'read' ? `${(done / 1e6).toFixed(1)}/${(total / 1e6).toFixed(1)} MB, ` : '';
      const figures = `${amount}${grouped(rows)} rows, ${grouped(rate)} rows/s`;
      if (stream.isTTY) {
        if (!newStage && done < total && now - lastDraw < 100) return;
        lastDraw = now;
        const filled = Math.round(ratio * WIDTH);
        stream.write(`\r${LABEL[phase].padEnd(10)} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${percent} ${figures}\x1b[K`);
        drawn = true;
        return;
      }
      if (now - started < QUIET_MS) return;
      if (!newStage && now - lastLine < LINE_EVERY_MS) return;
      lastLine = now;
      stream.write(`${LABEL[phase]}: ${percent.trim()}, ${figures}\n`);
    },
    done(): void {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

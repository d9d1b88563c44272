/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
import type { ImportPhase } from '../services/import/importer.ts';

const WIDTH = 30;
const LABEL: Record<ImportPhase, string> = { read: 'reading', diff: 'comparing', write: 'writing' };

export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  let lastDraw = 0;
  let drawn = false;
  return {
    // An arrow function: it is handed around as a callback (onProgress: bar.update).
    update: (phase: ImportPhase, done: number, total: number): void => {
      if (!stream.isTTY) return;
      const now = Date.now();
      if (done < total && now - lastDraw < 100) return;
      lastDraw = now;
      const ratio = total === 0 ? 1 : Math.min(1, done / total);
      const filled = Math.round(ratio * WIDTH);
      const amount = phase === 'read' ? `${(done / 1e6).toFixed(1)}/${(total / 1e6).toFixed(1)} MB` : `${done}/${total}`;
      stream.write(
        `\r${LABEL[phase].padEnd(10)} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${amount}\x1b[K`,
      );
      drawn = true;
    },
    done(): void {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

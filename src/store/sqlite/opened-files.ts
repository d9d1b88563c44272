/**
 * The files a store opened, as the file system knew them then (device and
 * inode), so that /readyz can tell when one was deleted or replaced under the
 * running server: SQLite goes on reading and writing the file it opened, which
 * no longer has its name, so the server would serve data no other process
 * sees and write counts, keys' last use and the request log where nothing
 * will ever read them. Only a restart opens the file under the name again.
 */
import { statSync } from 'node:fs';
import { StoreUnavailableError } from '../../errors.ts';

interface Opened {
  file: string;
  dev: number;
  ino: number;
}

export class OpenedFiles {
  private readonly files: Opened[];

  constructor(files: readonly string[]) {
    this.files = files.map((file) => {
      const { dev, ino } = statSync(file);
      return { file, dev, ino };
    });
  }

  /** Throws StoreUnavailableError naming the first file that is no longer the one opened. */
  check(): void {
    for (const opened of this.files) {
      const now = statSync(opened.file, { throwIfNoEntry: false });
      if (now === undefined)
        throw new StoreUnavailableError(`${opened.file} no longer exists under that name (deleted or moved away while the server ran); restart the server`);
      if (now.dev !== opened.dev || now.ino !== opened.ino) {
        throw new StoreUnavailableError(`${opened.file} was replaced by another file while the server ran; restart the server to serve it`);
      }
    }
  }
}

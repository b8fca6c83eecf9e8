import fs from 'node:fs';

export type DirLock = { release(): void };

export class DataDirInUseError extends Error {
  constructor(lockPath: string, pid: number) {
    super(
      `The embedded database ${lockPath.replace(/\.lock$/, '')} is in use by process ${pid} (a running server or CLI). ` +
        'PGlite allows one process per data directory: stop that process, use another DATA_DIR, or set DATABASE_URL ' +
        `to use Postgres. If no such process exists, delete ${lockPath}.`,
    );
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive, process-level lock on a PGlite data directory: a lock file holding our pid, created
 * with O_EXCL so two processes racing for it cannot both win. A lock left by a dead process is taken over.
 */
export function acquireDirLock(lockPath: string, _dir: string): DirLock {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(lockPath, pid);
      }
      // Stale (its process is gone) or left by this very process: remove it and try again.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

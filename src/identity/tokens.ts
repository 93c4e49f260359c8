import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The name operator tokens are issued to; no agent may have it (agent names cannot contain `:`). */
export const ADMIN = 'admin:operator';

interface StoredToken {
  id: string;
  agent: string;
  /** sha256 of the token; the token itself is never stored. */
  sha256: string;
  createdAt: string;
}

interface TokenFile {
  tokens: StoredToken[];
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Bearer tokens, stored as hashes in a JSON file under the data directory. The running gateway re-reads the
 * file when it changes, so `sluice token create` takes effect without a restart.
 */
export class TokenStore {
  private byHash = new Map<string, string>();
  private loadedMtime = -1;
  private checkedAt = -Infinity;

  constructor(readonly file: string) {}

  /** Creates a token for `agent`, stores its hash, and returns the token: the only time it is ever seen. */
  create(agent: string): { token: string; id: string } {
    const token = `slc_${randomBytes(32).toString('base64url')}`;
    const id = randomBytes(6).toString('hex');
    const data = this.read();
    data.tokens.push({ id, agent, sha256: hashToken(token), createdAt: new Date().toISOString() });
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // Write-then-rename: a gateway reading the file never sees half of it.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.file);
    this.checkedAt = -Infinity; // this process sees its own new token at once
    return { token, id };
  }

  /** The agent a presented token belongs to, or undefined. */
  lookup(token: string): string | undefined {
    this.refresh();
    return this.byHash.get(hashToken(token));
  }

  list(): Omit<StoredToken, 'sha256'>[] {
    return this.read().tokens.map(({ sha256: _hash, ...rest }) => rest);
  }

  /** Looks at the file at most once a second: a stat per request would cost more than the rest of auth. */
  private refresh(): void {
    const now = performance.now();
    if (now - this.checkedAt < 1000) return;
    this.checkedAt = now;
    let mtime: number;
    try {
      mtime = statSync(this.file).mtimeMs;
    } catch {
      mtime = 0;
    }
    if (mtime === this.loadedMtime) return;
    this.loadedMtime = mtime;
    this.byHash = new Map(this.read().tokens.map((t) => [t.sha256, t.agent]));
  }

  private read(): TokenFile {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as TokenFile;
      return Array.isArray(data.tokens) ? data : { tokens: [] };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { tokens: [] };
      // An unreadable token file must not turn into "nobody has a token" silently: say so loudly.
      throw new Error(`cannot read token file ${this.file}: ${(err as Error).message}`);
    }
  }
}

import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TokenEntry, TokenStore } from '../state/ports.js';
import { hashToken, newToken, SLUICE_TOKEN_PREFIX } from '../state/token-hash.js';

/** The name operator tokens are issued to; no agent may have it (agent names cannot contain `:`). */
export const ADMIN = 'admin:operator';

interface StoredToken extends TokenEntry {
  /** sha256 of the token; the token itself is never stored. */
  sha256: string;
}

export { hashToken, SLUICE_TOKEN_PREFIX };

/** A short fingerprint of a presented token, for records of refused logins: enough to tell tokens apart, never the token. */
export function tokenFingerprint(token: string): string {
  return `sha256:${hashToken(token).slice(0, 12)}`;
}

/**
 * Bearer tokens, stored as hashes in a JSON file under the data directory (the embedded default). The
 * running gateway re-reads the file when it changes, so `sluice token create` takes effect without a restart.
 */
export class FileTokenStore implements TokenStore {
  private byHash = new Map<string, string>();
  private loadedMtime = -1;
  private checkedAt = -Infinity;

  constructor(readonly file: string) {}

  /** Creates a token for `agent`, stores its hash, and returns the token: the only time it is ever seen. */
  create(agent: string): { token: string; id: string } {
    const made = newToken();
    const data = this.read();
    data.push({ id: made.id, agent, sha256: hashToken(made.token), createdAt: new Date().toISOString() });
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // Write-then-rename: a gateway reading the file never sees half of it.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ tokens: data }, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.file);
    this.checkedAt = -Infinity; // this process sees its own new token at once
    return made;
  }

  list(): TokenEntry[] {
    return this.read().map(({ id, agent, createdAt }) => ({ id, agent, createdAt }));
  }

  async agentFor(token: string): Promise<string | undefined> {
    this.refresh();
    return this.byHash.get(hashToken(token));
  }

  async issue(agent: string): Promise<{ token: string; id: string }> {
    return this.create(agent);
  }

  async entries(): Promise<TokenEntry[]> {
    return this.list();
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
    this.byHash = new Map(this.read().map((t) => [t.sha256, t.agent]));
  }

  /** The file's entries; ones with missing or mistyped fields are skipped (the file is input like any other). */
  private read(): StoredToken[] {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      // An unreadable token file must not turn into "nobody has a token" silently: say so loudly.
      throw new Error(`cannot read token file ${this.file}: ${(err as Error).message}`);
    }
    const tokens = (data as { tokens?: unknown } | null)?.tokens;
    if (!Array.isArray(tokens)) return [];
    return (tokens as unknown[]).filter(isStoredToken);
  }
}

/** Tokens in memory: for tests and library use. */
export class MemoryTokenStore implements TokenStore {
  private readonly byHash = new Map<string, TokenEntry>();

  async agentFor(token: string): Promise<string | undefined> {
    return this.byHash.get(hashToken(token))?.agent;
  }

  async issue(agent: string): Promise<{ token: string; id: string }> {
    const made = newToken();
    this.byHash.set(hashToken(made.token), { id: made.id, agent, createdAt: new Date().toISOString() });
    return made;
  }

  async entries(): Promise<TokenEntry[]> {
    return [...this.byHash.values()].map((e) => ({ ...e }));
  }
}

/** A token entry as the file must hold it; anything else in a hand-edited or damaged file is left out. */
function isStoredToken(t: unknown): t is StoredToken {
  if (t === null || typeof t !== 'object') return false;
  const { id, agent, sha256, createdAt } = t as Record<string, unknown>;
  return typeof id === 'string' && typeof agent === 'string' && typeof sha256 === 'string' && typeof createdAt === 'string';
}

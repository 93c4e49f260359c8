import type { TokenEntry, TokenStore } from '../ports.js';
import { hashToken, newToken } from '../token-hash.js';
import type { SharedRedis } from './client.js';
import type { Keys } from './keys.js';
import { isObject, parseJson } from './parse.js';

/** How long a replica remembers what a token hash maps to: as long as the token file's re-read interval. */
const TOKEN_CACHE_MS = 1000;

/** Bearer tokens as hashes in one Redis hash: `sluice token create` on any machine serves every replica. */
export class RedisTokens implements TokenStore {
  private readonly cache = new Map<string, { agent: string | undefined; at: number }>();

  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
  ) {}

  async agentFor(token: string): Promise<string | undefined> {
    const hash = hashToken(token);
    const cached = this.cache.get(hash);
    if (cached && performance.now() - cached.at < TOKEN_CACHE_MS) return cached.agent;
    const entry = parseTokenEntry(await this.redis.run((r) => r.hget(this.keys.tokens(), hash)));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { agent: entry?.agent, at: performance.now() });
    return entry?.agent;
  }

  async issue(agent: string): Promise<{ token: string; id: string }> {
    const { token, id } = newToken();
    const entry: TokenEntry = { id, agent, createdAt: new Date().toISOString() };
    await this.redis.run((r) => r.hset(this.keys.tokens(), hashToken(token), JSON.stringify(entry)));
    return { token, id };
  }

  async entries(): Promise<TokenEntry[]> {
    const all = await this.redis.run((r) => r.hvals(this.keys.tokens()));
    return all
      .map(parseTokenEntry)
      .filter((e): e is TokenEntry => e !== undefined)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

function parseTokenEntry(text: string | null | undefined): TokenEntry | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.id === 'string' && typeof v.agent === 'string' && typeof v.createdAt === 'string' ? { id: v.id, agent: v.agent, createdAt: v.createdAt } : undefined;
}

/**
 * What a target filter means, the same in every store: `*` matches any run of characters (none included),
 * `?` exactly one, and everything else — `_`, `[`, `%`, `\` — is itself; case matters. Tool names carry `_`
 * and `-`, URIs carry `?` and `[`: a filter the operator types must not turn into a pattern language of the
 * database underneath.
 */
export function targetMatcher(glob: string): (target: string) => boolean {
  const source = [...glob].map((c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('');
  const re = new RegExp(`^${source}$`, 'u');
  return (target) => re.test(target);
}

/** The literal start of a glob (up to its first wildcard): stores can narrow by it before matching. */
export function literalPrefix(glob: string): string {
  const i = glob.search(/[*?]/);
  return i === -1 ? glob : glob.slice(0, i);
}

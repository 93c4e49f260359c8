/**
 * The transport a URL is spoken over when the config names none: WebSocket for ws(s)://, else Streamable HTTP.
 * On its own, without the transports: the config loader and every command use it.
 */
export function transportForUrl(url: string, type?: 'http' | 'sse' | 'ws'): 'http' | 'sse' | 'ws' {
  return type ?? (/^wss?:/.test(url) ? 'ws' : 'http');
}

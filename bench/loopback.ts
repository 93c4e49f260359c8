import { readFileSync } from 'node:fs';

const LISTEN = '0A';
const LOOPBACK = new Set(['0100007F', '00000000000000000000000001000000']);

/**
 * Throws unless every listening socket on `port` is bound to loopback. supergateway and mcp-proxy default to
 * all interfaces; this proves that our flags and preload really kept them off the network. Linux only: on
 * other systems there is no /proc/net and the check is skipped.
 */
export function assertLoopbackOnly(port: number, who: string): void {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4 || cols[3] !== LISTEN) continue;
      const [address, p] = cols[1].split(':');
      if (p === hexPort) found.push(address);
    }
  }
  const exposed = found.filter((a) => !LOOPBACK.has(a));
  if (exposed.length > 0) throw new Error(`${who} listens on port ${port} beyond loopback (addresses ${exposed.join(', ')}); refusing to benchmark`);
}

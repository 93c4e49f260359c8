/** Splits `host:port` or `[v6]:port`. */
export function splitHostPort(listen: string): [string, number] {
  const i = listen.lastIndexOf(':');
  const host = listen.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return [host, Number(listen.slice(i + 1))];
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the traced bench paths export their spans: an OTLP/HTTP endpoint on loopback that reads and drops them. */
let sink: { url: string; server: Server; exports: number } | undefined;

export async function otlpSink(): Promise<{ url: string; exports: () => number }> {
  if (!sink) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (sink) sink.exports++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    sink = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, exports: 0 };
  }
  const s = sink;
  return { url: s.url, exports: () => s.exports };
}

export async function stopOtlpSink(): Promise<void> {
  const s = sink;
  sink = undefined;
  if (s) await new Promise<void>((resolve) => s.server.close(() => resolve()));
}

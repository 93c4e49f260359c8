import type { RawData } from 'ws';

/** The text of one WebSocket frame, however `ws` hands it over (a Buffer, fragments, or an ArrayBuffer). */
export function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

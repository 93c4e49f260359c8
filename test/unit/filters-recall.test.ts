import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { Params } from '../../src/protocol/jsonrpc.js';
import { scanPayload, scanText, type FilterActions } from '../../src/filters/scan.js';
import { embedded, GENERATORS } from './filters-generators.js';

const REDACT: FilterActions = { secret: 'redact', pii: 'redact', injection: 'label' };
const RUNS = 10_000;

// Everywhere a text can travel in what the filters scan: results, resources, prompts, structured content under any
// key (`data` and `type` too, outside binary content), URIs, `_meta`, and arguments.
const PLACES: ((text: string) => Params)[] = [
  (text) => ({ content: [{ type: 'text', text }] }),
  (text) => ({ content: [{ type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text } }] }),
  (text) => ({ content: [{ type: 'text', text: 'rows' }], structuredContent: { rows: [{ id: 1, data: text }] } }),
  (text) => ({ contents: [{ uri: 'file:///notes.txt', text }] }),
  (text) => ({ messages: [{ role: 'user', content: { type: 'text', text } }] }),
  (text) => ({ content: [{ type: 'resource_link', name: 'link', uri: text }] }),
  (text) => ({ content: [], _meta: { note: text } }),
  (text) => ({ path: '/tmp/out', type: text }),
];

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

describe('content filters find every generated value', () => {
  for (const [kind, generator] of Object.entries(GENERATORS)) {
    it(`${kind}: ${RUNS} values in random text, found and redacted by scanText and scanPayload`, () => {
      fc.assert(
        fc.property(embedded(generator), fc.nat(PLACES.length - 1), ({ sample, text }, place) => {
          const scanned = scanText(text, REDACT);
          check(scanned.findings.some((f) => f.kind === kind && f.category === sample.category), `scanText did not find the ${kind}`);
          check(!scanned.text.includes(sample.sensitive), `scanText left the ${kind} in: ${scanned.text}`);
          const payload = scanPayload(PLACES[place](text), REDACT);
          check(payload.findings.some((f) => f.kind === kind && f.category === sample.category), `scanPayload did not find the ${kind}`);
          check(stringsOf(payload.value).every((s) => !s.includes(sample.sensitive)), `scanPayload left the ${kind} in: ${JSON.stringify(payload.value)}`);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

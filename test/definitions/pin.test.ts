import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/canonical-json.js';
import { DefinitionGuard } from '../../src/definitions/guard.js';
import { pinOf } from '../../src/definitions/pin.js';
import { MemoryPins } from '../../src/state/memory-state.js';
import { ROOT } from '../helpers/servers.js';

describe('pinning definitions', () => {
  it('writes canonical JSON the way RFC 8785 does: keys by UTF-16 code units, ECMAScript numbers, no whitespace', () => {
    // From RFC 8785 §3.2.3 (sorting) and §3.2.2.3 (numbers).
    expect(canonicalJson({ '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' }))
      .toBe('{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}');
    expect(canonicalJson([1e21, 1e-7, -0, 0.000001, 333333333.33333329, 4.5e-324 * 0 + 5e-324, 9007199254740992])).toBe('[1e+21,1e-7,0,0.000001,333333333.3333333,5e-324,9007199254740992]');
  });

  it('gives the same pin whatever the key order, and a new pin for any change a client could show', () => {
    const tool = { name: 'read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, annotations: { readOnlyHint: true }, icons: [{ src: 'https://x.example/i.png' }], _meta: { v: 1 } };
    const reordered = { _meta: { v: 1 }, icons: [{ src: 'https://x.example/i.png' }], annotations: { readOnlyHint: true }, inputSchema: { properties: { path: { type: 'string' } }, type: 'object' }, description: 'Reads a file.', name: 'read' };
    expect(pinOf('tool', reordered)).toBe(pinOf('tool', tool));
    const changes = [
      { ...tool, description: 'Reads a file. ' },
      { ...tool, annotations: { readOnlyHint: false } },
      { ...tool, inputSchema: { ...tool.inputSchema, required: ['path'] } },
      { ...tool, icons: [{ src: 'https://x.example/j.png' }] },
      { ...tool, _meta: { v: 2 } },
      { ...tool, title: 'Read' },
    ];
    for (const changed of changes) expect(pinOf('tool', changed)).not.toBe(pinOf('tool', tool));
    // The kind is part of the pin: a prompt and a tool of the same shape do not share one.
    expect(pinOf('prompt', tool)).not.toBe(pinOf('tool', tool));
  });

  it('catches the promptguard rug pull by its pin: a clean definition trusted, then changed and quarantined', async () => {
    type Doc = { mcpServers: Record<string, { tools: Record<string, unknown>[] }> };
    const corpus = JSON.parse(readFileSync(`${ROOT}/test/fixtures/tool-poisoning/upstream/promptguard-mcp_corpus.json`, 'utf8')) as { cases: { id: string; pin?: Doc; doc: Doc }[] };
    const rug = corpus.cases.find((c) => c.id === 'rug-001')!;
    const offers = (doc: Doc) => Object.entries(doc.mcpServers).map(([server, s]) => ({ server, policy: { changed: 'quarantine', flagged: 'quarantine' } as const, tools: s.tools, prompts: [], resources: [], resourceTemplates: [] }));
    const guard = new DefinitionGuard(new MemoryPins());
    const servers = Object.keys(rug.doc.mcpServers);
    expect((await guard.review(offers(rug.pin!), servers)).map((e) => e.outcome)).toEqual(rug.pin!.mcpServers[servers[0]].tools.map(() => 'allowed'));
    expect((await guard.review(offers(rug.doc), servers)).map((e) => [e.change, e.outcome])).toEqual([['changed', 'quarantined']]);
  });
});

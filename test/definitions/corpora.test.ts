import { describe, expect, it } from 'vitest';
import { corpora, flagCase, rates } from '../helpers/tool-poisoning.js';
import { scanDefinition } from '../../src/definitions/scan.js';

/**
 * The definition scanner on labelled corpora (test/fixtures/tool-poisoning/: two from mcpproxy-go, one from
 * promptguard-mcp, one of our own): the build fails below recall 0.90 on the malicious entries or above 0.05
 * false positives on the benign ones, per corpus. The per-category figures are in BENCHMARKS.md.
 */
describe('the definition scanner on labelled corpora', () => {
  for (const corpus of corpora()) {
    it(`${corpus.name}: recall ≥ 0.90, false positives ≤ 0.05`, () => {
      const flagged = (c: Parameters<typeof flagCase>[0]) => flagCase(c, scanDefinition);
      const [recall, fp] = ['malicious (recall)', 'benign (false positives)'].map((g) => rates(corpus, flagged).find((r) => r.group === g)!);
      const missed = corpus.cases.filter((c) => c.malicious && !flagged(c)).map((c) => c.id);
      const wrong = corpus.cases.filter((c) => !c.malicious && flagged(c)).map((c) => c.id);
      expect(recall.flagged / recall.of, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(0.9);
      expect(fp.flagged / fp.of, `flagged benign: ${wrong.join(', ')}`).toBeLessThanOrEqual(0.05);
    });
  }
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG_FILE, catalogText, FROZEN_SIZE } from '../../bench/catalog-search/dataset.js';
import { makeCatalog } from '../../bench/catalog-search/generator/make-catalog.js';

/**
 * The bench reads its catalog-search catalog from a frozen file and never runs the generator; this holds the file
 * to the generator, so the data the figures in BENCHMARKS.md rest on can always be made again from source.
 */
describe('the catalog-search data set', () => {
  it('is frozen exactly as the generator makes it (after changing a generator, run bench/catalog-search/generator/freeze.ts)', () => {
    const frozen = readFileSync(CATALOG_FILE, 'utf8').split('\n');
    const generated = catalogText(makeCatalog(FROZEN_SIZE)).split('\n');
    const first = generated.findIndex((line, i) => line !== frozen[i]);
    expect(first === -1 ? undefined : `line ${first + 1}: ${frozen[first]}`, 'the first line that differs').toBeUndefined();
    expect(frozen.length).toBe(generated.length);
  });
});

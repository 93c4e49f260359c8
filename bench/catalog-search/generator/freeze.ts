/**
 * Writes the frozen catalog (test/fixtures/catalog-search/catalog.json) from the generator: run it after changing
 * a generator, then commit the file. The bench only ever reads the file.
 *
 *   node --import tsx bench/catalog-search/generator/freeze.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOG_FILE, catalogText, FROZEN_SIZE } from '../dataset.js';
import { makeCatalog } from './make-catalog.js';

writeFileSync(CATALOG_FILE, catalogText(makeCatalog(FROZEN_SIZE)));
process.stdout.write(`wrote ${FROZEN_SIZE} entries to ${fileURLToPath(CATALOG_FILE)}\n`);

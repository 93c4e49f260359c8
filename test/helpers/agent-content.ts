/** What the test/unit/agent-content-*.test.ts files share: base64, the text and image parts of a result, the two-page PDF. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImagePart } from 'ai';
import type { ModelPart } from '../../src/agent/content/index.js';
import { ROOT } from './servers.js';

export const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');
export const texts = (parts: ModelPart[]): string[] => parts.flatMap((p) => (p.type === 'text' ? [p.text] : []));
export const images = (parts: ModelPart[]): ImagePart[] => parts.filter((p): p is ImagePart => p.type === 'image');
export const TWO_PAGES = readFileSync(path.join(ROOT, 'test/fixtures/two-pages.pdf'));

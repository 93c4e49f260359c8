import { describe, expect, it } from 'vitest';
import { DETECTORS } from '../../src/filters/detectors.js';
import { hasDigit, probe, probeFor } from '../../src/filters/probes.js';

describe('detector probes', () => {
  it('search a tail of each needle, so a text holding the needle always passes', () => {
    for (const d of DETECTORS) {
      const needles = [...(typeof d.needs === 'string' ? [d.needs] : d.needs ?? []), ...(d.needsWord ?? [])];
      for (const needle of needles) {
        const tail = probeFor(needle);
        expect(needle.endsWith(tail)).toBe(true);
        expect(tail.length).toBeGreaterThanOrEqual(Math.min(needle.length, 4));
        expect(probe([needle])(`some text before ${needle} and after`)).toBe(true);
        expect(probe([needle])(needle)).toBe(true);
      }
    }
  });

  it('start from the rarest character', () => {
    expect(probeFor('ignore')).toBe('gnore');
    expect(probeFor('the user')).toBe('user');
    expect(probeFor('sk-')).toBe('sk-');
  });

  it('tell prose without any needle from prose with one', () => {
    const words = probe(['ignore', 'disregard', 'forget', 'override']);
    expect(words('the quick brown fox jumps over the lazy dog')).toBe(false);
    expect(words('please disregard that')).toBe(true);
    expect(hasDigit('no digits here at all')).toBe(false);
    expect(hasDigit('one 9 here')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { defaultAnswers, formFields, parseAnswer } from '../../src/agent/elicitation.js';
import { elicitationWithoutTerminal } from '../../src/cli/agent-terminal.js';

/** The restricted JSON Schema of MCP elicitation forms, as server-everything sends it (abridged). */
const schema = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Name', description: 'Your full name' },
    check: { type: 'boolean' as const },
    email: { type: 'string' as const, format: 'email' },
    birthdate: { type: 'string' as const, format: 'date' },
    integer: { type: 'integer' as const, minimum: 1, maximum: 100, default: 42 },
    friend: { type: 'string' as const, enum: ['Monica', 'Rachel', 'Joey'], default: 'Monica' },
    hero: { type: 'string' as const, oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Wonder Woman' }] },
    pets: { type: 'string' as const, enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
    fish: { type: 'array' as const, minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }, { const: 'fish-3', title: 'Trout' }] } },
  },
  required: ['name'],
};

describe('elicitation forms', () => {
  const fields = formFields(schema as never);
  const field = (name: string) => fields.find((f) => f.name === name)!;

  it('reads every kind of field the spec allows', () => {
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['name', 'string'], ['check', 'boolean'], ['email', 'string'], ['birthdate', 'string'], ['integer', 'integer'],
      ['friend', 'choice'], ['hero', 'choice'], ['pets', 'choice'], ['fish', 'choices'],
    ]);
    expect(field('hero').options).toEqual([{ value: 'hero-1', label: 'Superman' }, { value: 'hero-2', label: 'Wonder Woman' }]);
    expect(field('pets').options![1]).toEqual({ value: 'pet-2', label: 'Dogs' });
    expect(field('name')).toMatchObject({ required: true, label: 'Name' });
  });

  it('checks what a person types, field by field', () => {
    expect(parseAnswer(field('name'), '')).toEqual({ ok: false, error: 'Name is required' });
    expect(parseAnswer(field('check'), '')).toEqual({ ok: true, value: undefined });
    expect(parseAnswer(field('check'), 'y')).toEqual({ ok: true, value: true });
    expect(parseAnswer(field('check'), 'maybe')).toMatchObject({ ok: false });
    expect(parseAnswer(field('email'), 'not an address')).toEqual({ ok: false, error: 'must be an email address' });
    expect(parseAnswer(field('email'), 'ada@example.org')).toEqual({ ok: true, value: 'ada@example.org' });
    expect(parseAnswer(field('birthdate'), '1815-13-40')).toMatchObject({ ok: false });
    expect(parseAnswer(field('birthdate'), '1815-12-10')).toEqual({ ok: true, value: '1815-12-10' });
    expect(parseAnswer(field('integer'), '')).toEqual({ ok: true, value: 42 });
    expect(parseAnswer(field('integer'), '500')).toEqual({ ok: false, error: 'must be at most 100' });
    expect(parseAnswer(field('integer'), '7.5')).toEqual({ ok: false, error: 'must be a whole number' });
    expect(parseAnswer(field('friend'), '2')).toEqual({ ok: true, value: 'Rachel' });
    expect(parseAnswer(field('friend'), 'Gunther')).toMatchObject({ ok: false });
    expect(parseAnswer(field('hero'), 'wonder woman')).toEqual({ ok: true, value: 'hero-2' });
    expect(parseAnswer(field('fish'), '1, 3')).toEqual({ ok: true, value: ['fish-1', 'fish-3'] });
    expect(parseAnswer(field('fish'), '1,2,3')).toEqual({ ok: false, error: 'choose at most 2' });
  });

  it('answers with the defaults only when they fill the form', () => {
    expect(defaultAnswers(fields)).toBeUndefined(); // "name" is required and has no default
    const optional = formFields({ type: 'object', properties: { integer: { type: 'integer', default: 42 }, note: { type: 'string' } } } as never);
    expect(defaultAnswers(optional)).toEqual({ integer: 42 });
    const request = { server: 's', message: 'm', requestedSchema: { type: 'object', properties: { integer: { type: 'integer', default: 42 } } } } as never;
    expect(elicitationWithoutTerminal(request, false)).toEqual({ action: 'decline' });
    expect(elicitationWithoutTerminal(request, true)).toEqual({ action: 'accept', content: { integer: 42 } });
    expect(elicitationWithoutTerminal({ server: 's', mode: 'url', message: 'm', url: 'https://x', elicitationId: '1' }, true)).toEqual({ action: 'decline' });
  });
});

import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';

/** A server's question for the user (MCP elicitation): a form by schema, or a URL to open. */
export type ElicitationRequest = { server: string } & ElicitRequestParams;
export type Elicit = (request: ElicitationRequest) => Promise<ElicitResult>;

type FormSchema = Extract<ElicitRequestParams, { requestedSchema: unknown }>['requestedSchema'];

/** One field of a form, as a person fills it in. */
export interface FormField {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  format?: string;
  min?: number;
  max?: number;
  /** For choice and choices: the values and what to show for each. */
  options?: { value: string; label: string }[];
  default?: unknown;
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The fields of a form, from the restricted JSON Schema elicitation allows: flat properties of string (with
 * format, length), number / integer (with range), boolean, single choice (enum, oneOf const/title, legacy
 * enumNames) and multiple choice (array of such).
 */
export function formFields(schema: FormSchema): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, raw]) => fieldOf(name, raw as Record<string, unknown>, required.has(name)));
}

function fieldOf(name: string, p: Record<string, unknown>, required: boolean): FormField {
  const base = { name, label: str(p.title) ?? name, description: str(p.description), required, default: p.default };
  const options = choices(p);
  if (p.type === 'array') {
    const items = (p.items ?? {}) as Record<string, unknown>;
    return { ...base, kind: 'choices', options: choices(items) ?? [], min: num(p.minItems), max: num(p.maxItems) };
  }
  if (options) return { ...base, kind: 'choice', options };
  if (p.type === 'boolean') return { ...base, kind: 'boolean' };
  if (p.type === 'number' || p.type === 'integer') return { ...base, kind: p.type, min: num(p.minimum), max: num(p.maximum) };
  return { ...base, kind: 'string', format: str(p.format), min: num(p.minLength), max: num(p.maxLength) };
}

function choices(p: Record<string, unknown>): { value: string; label: string }[] | undefined {
  const titled = (Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : undefined) as { const?: unknown; title?: unknown }[] | undefined;
  if (titled) return titled.filter((o) => typeof o?.const === 'string').map((o) => ({ value: o.const as string, label: str(o.title) ?? (o.const as string) }));
  if (!Array.isArray(p.enum)) return undefined;
  const names = Array.isArray(p.enumNames) ? p.enumNames : [];
  return p.enum.filter((v): v is string => typeof v === 'string').map((v, i) => ({ value: v, label: str(names[i]) ?? v }));
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const FORMATS: Record<string, { test: (s: string) => boolean; what: string }> = {
  email: { test: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), what: 'an email address' },
  uri: { test: (s) => URL.canParse(s) && /^[a-z][a-z0-9+.-]*:/i.test(s), what: 'a URL' },
  date: { test: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)), what: 'a date (YYYY-MM-DD)' },
  'date-time': { test: (s) => !Number.isNaN(Date.parse(s)) && /\d{4}-\d{2}-\d{2}T/.test(s), what: 'a date and time (ISO 8601)' },
};

/**
 * What a person typed for a field, checked against it. An empty answer takes the default, or leaves an
 * optional field out (value undefined); a choice is its number or its value; several choices are comma-separated.
 */
export function parseAnswer(field: FormField, typed: string): Parsed {
  const text = typed.trim();
  if (text === '') {
    if (field.default !== undefined) return check(field, field.default);
    return field.required ? { ok: false, error: `${field.label} is required` } : { ok: true, value: undefined };
  }
  switch (field.kind) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { ok: true, value: true };
      if (/^(n|no|false)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, error: 'answer yes or no' };
    case 'number':
    case 'integer':
      return check(field, Number(text));
    case 'choice':
      return check(field, pick(field, text));
    case 'choices':
      return check(field, text.split(',').map((t) => pick(field, t.trim())));
    case 'string':
      return check(field, text);
  }
}

/** A choice by its number in the list, its value, or its label. */
function pick(field: FormField, text: string): string {
  const options = field.options ?? [];
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= options.length) return options[n - 1].value;
  return options.find((o) => o.value === text || o.label.toLowerCase() === text.toLowerCase())?.value ?? text;
}

/** A value against its field's rules; used for typed answers and for defaults alike. */
export function check(field: FormField, value: unknown): Parsed {
  const fail = (error: string): Parsed => ({ ok: false, error });
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail('must be yes or no');
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a number');
      if (field.kind === 'integer' && !Number.isInteger(value)) return fail('must be a whole number');
      if (field.min !== undefined && value < field.min) return fail(`must be at least ${field.min}`);
      if (field.max !== undefined && value > field.max) return fail(`must be at most ${field.max}`);
      return { ok: true, value };
    }
    case 'choice':
      return (field.options ?? []).some((o) => o.value === value) ? { ok: true, value } : fail(`must be one of ${optionList(field)}`);
    case 'choices': {
      if (!Array.isArray(value) || !value.every((v) => (field.options ?? []).some((o) => o.value === v))) return fail(`each must be one of ${optionList(field)}`);
      if (field.min !== undefined && value.length < field.min) return fail(`choose at least ${field.min}`);
      if (field.max !== undefined && value.length > field.max) return fail(`choose at most ${field.max}`);
      return { ok: true, value };
    }
    case 'string': {
      if (typeof value !== 'string') return fail('must be text');
      if (field.min !== undefined && value.length < field.min) return fail(`must be at least ${field.min} characters`);
      if (field.max !== undefined && value.length > field.max) return fail(`must be at most ${field.max} characters`);
      const format = field.format && Object.hasOwn(FORMATS, field.format) ? FORMATS[field.format] : undefined;
      if (format && !format.test(value)) return fail(`must be ${format.what}`);
      return { ok: true, value };
    }
  }
}

const optionList = (field: FormField) => (field.options ?? []).map((o) => o.value).join(', ');

/** The form filled with its defaults, when they satisfy every field; otherwise undefined (nobody can answer). */
export function defaultAnswers(fields: FormField[]): Record<string, unknown> | undefined {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.default === undefined) {
      if (field.required) return undefined;
      continue;
    }
    const parsed = check(field, field.default);
    if (!parsed.ok) return undefined;
    content[field.name] = parsed.value;
  }
  return content;
}

/** Checks an accepted answer against the form before it goes to the server: every problem, by field. */
export function formProblems(fields: FormField[], content: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const field of fields) {
    const value = Object.hasOwn(content, field.name) ? content[field.name] : undefined;
    if (value === undefined) {
      if (field.required) problems.push(`${field.name}: required`);
      continue;
    }
    const parsed = check(field, value);
    if (!parsed.ok) problems.push(`${field.name}: ${parsed.error}`);
  }
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(content)) if (!known.has(key)) problems.push(`${key}: not a field of this form`);
  return problems;
}

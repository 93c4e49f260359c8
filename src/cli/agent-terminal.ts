import type { Interface } from 'node:readline/promises';
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ApprovalAnswer, SamplingRequest } from '../agent/agent.js';
// The form helpers alone, not the agent: every sluice command loads this file, and the agent loads the AI SDK.
import { defaultAnswers, formFields, parseAnswer, type ElicitationRequest, type FormField } from '../agent/elicitation.js';
import { forTerminal as t } from '../policy/printable.js';

/**
 * What the agent asks a person at the terminal: tool approvals, sampling approvals, servers' forms and URLs.
 * Everything shown of them comes from a server or the model, and goes through `forTerminal`.
 */

export const dim = (s: string) => (process.stderr.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
export const short = (v: unknown, max = 160) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
};
const say = (text: string) => process.stderr.write(`${text}\n`);

/** Yes, no, or always for this tool; an empty answer is no. */
export async function askToolApproval(rl: Interface, tool: string, args: Record<string, unknown>): Promise<ApprovalAnswer> {
  for (;;) {
    const answer = (await rl.question(`Allow ${t(tool)} ${t(short(args))}? [y]es / [n]o / [a]lways: `)).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return 'yes';
    if (answer === 'n' || answer === 'no' || answer === '') return 'no';
    if (answer === 'a' || answer === 'always') return 'always';
  }
}

/** Shows what a server wants the model to answer, and asks; an empty answer is no. */
export async function askSamplingApproval(rl: Interface, r: SamplingRequest, modelName: string): Promise<boolean> {
  say(`\n${t(r.server)} asks the model (${modelName}) for a completion, at most ${r.maxTokens} tokens${r.modelHints.length ? `; it would prefer ${r.modelHints.map((h) => t(h)).join(', ')}` : ''}:`);
  if (r.systemPrompt) say(dim(`  system: ${t(short(r.systemPrompt, 300), true)}`));
  for (const m of r.messages) say(dim(`  ${t(m.role)}: ${t(short(m.text, 300), true)}`));
  return yesNo(rl, `Send this to the model? [y]es / [n]o: `);
}

async function yesNo(rl: Interface, question: string): Promise<boolean> {
  for (;;) {
    const answer = (await rl.question(question)).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return true;
    if (answer === 'n' || answer === 'no' || answer === '') return false;
  }
}

/** A server's form, field by field with validation, or its URL; the person may decline or cancel. */
export async function askElicitation(rl: Interface, request: ElicitationRequest): Promise<ElicitResult> {
  if (request.mode === 'url') {
    say(`\n${t(request.server)} asks you to open a link: ${t(request.message, true)}\n  ${t(request.url)}`);
    for (;;) {
      const answer = (await rl.question('Did you open it and finish there? [y]es / [n]o (decline) / [c]ancel: ')).trim().toLowerCase();
      if (answer === 'y' || answer === 'yes') return { action: 'accept' };
      if (answer === 'n' || answer === 'no') return { action: 'decline' };
      if (answer === 'c' || answer === 'cancel' || answer === '') return { action: 'cancel' };
    }
  }
  say(`\n${t(request.server)} asks: ${t(request.message, true)}`);
  for (;;) {
    const answer = (await rl.question('[a]nswer / [d]ecline / [c]ancel: ')).trim().toLowerCase();
    if (answer === 'd' || answer === 'decline') return { action: 'decline' };
    if (answer === 'c' || answer === 'cancel' || answer === '') return { action: 'cancel' };
    if (answer === 'a' || answer === 'answer') break;
  }
  const content: Record<string, unknown> = {};
  for (const field of formFields(request.requestedSchema)) {
    const value = await askField(rl, field);
    if (value !== undefined) content[field.name] = value;
  }
  return { action: 'accept', content: content as never };
}

async function askField(rl: Interface, field: FormField): Promise<unknown> {
  if (field.options?.length) field.options.forEach((o, i) => say(dim(`    ${i + 1}. ${t(o.label)}${o.label !== o.value ? ` (${t(o.value)})` : ''}`)));
  const hint = [field.description && t(field.description), field.kind === 'choices' ? 'numbers, comma-separated' : undefined, field.kind === 'boolean' ? 'y/n' : undefined].filter(Boolean).join('; ');
  const shown = field.default === undefined ? '' : ` [${t(Array.isArray(field.default) ? field.default.join(', ') : field.default)}]`;
  for (;;) {
    const typed = await rl.question(`  ${t(field.label)}${field.required ? '*' : ''}${hint ? ` (${hint})` : ''}${shown}: `);
    const parsed = parseAnswer(field, typed);
    if (parsed.ok) return parsed.value;
    say(`    ${t(parsed.error)}`);
  }
}

/** With nobody to ask (-p): a form is declined, unless --yes and its defaults fill it; a URL is declined. */
export function elicitationWithoutTerminal(request: ElicitationRequest, yes: boolean): ElicitResult {
  if (!yes || request.mode === 'url') return { action: 'decline' };
  const content = defaultAnswers(formFields(request.requestedSchema));
  return content ? { action: 'accept', content: content as never } : { action: 'decline' };
}

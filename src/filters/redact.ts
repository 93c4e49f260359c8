import { scanText, type FilterActions } from './scan.js';

/** What text kept for operators — the audit log, a server's error — loses: secrets and personal data. */
export const REDACT_ALL: Readonly<FilterActions> = { secret: 'redact', pii: 'redact', injection: 'label' };

/** `text` with every secret and piece of personal data the filters find replaced by `[REDACTED:kind]`. */
export function redacted(text: string): string {
  return scanText(text, REDACT_ALL).text;
}

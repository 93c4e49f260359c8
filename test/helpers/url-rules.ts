/** The URL checks in process, for the test/unit/url-*.test.ts files: checkUrls with no rules unless given, and its answer as one string. */
import { checkUrls, type UrlRules } from '../../src/policy/url-rules.js';

export const none: UrlRules = { allow: [], deny: [] };
export const check = (args: Record<string, unknown>, rules: UrlRules = none, selectors: string[] = [], schema?: Record<string, unknown>) => checkUrls(args, schema, selectors, rules);
export const refusal = (r: ReturnType<typeof checkUrls>) => (r.ok ? 'allowed' : r.reason);

/**
 * Tests whether a URI could have been made from an RFC 6570 template, for routing reads of templated
 * resources to the server that declared the template. Literal parts must match exactly; each expression
 * matches one or more characters (reserved expansions `{+x}`/`{#x}` may span slashes).
 */
export function templateMatcher(template: string): RegExp {
  let pattern = '';
  let last = 0;
  for (const m of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    pattern += escape(template.slice(last, m.index));
    const op = m[1];
    if (op === '?' || op === '&') pattern += '(?:[?&][^#]*)?';
    else if (op === '#') pattern += '(?:#.*)?';
    else if (op === '+') pattern += '.+';
    else pattern += '[^/?#]+';
    last = (m.index ?? 0) + m[0].length;
  }
  pattern += escape(template.slice(last));
  return new RegExp(`^${pattern}$`);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

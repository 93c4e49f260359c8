/** Replaces `${VAR}` and `${VAR:-default}` in every string, so secrets can stay out of the file. */
export function expandEnv(value: unknown, keyPath: PropertyKey[], env: NodeJS.ProcessEnv, problem: (p: PropertyKey[], m: string) => void): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => {
      const v = Object.hasOwn(env, name) ? env[name] : undefined;
      if (typeof v === 'string' && v !== '') return v;
      if (fallback !== undefined) return fallback;
      problem(keyPath, `environment variable ${name} is not set`);
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, [...keyPath, i], env, problem));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, [...keyPath, k], env, problem)]));
  }
  return value;
}

/**
 * Whether an argument carries a file system path, from its name and from what the tool's input schema says of
 * it. Real servers name paths every which way — mcp-server-git's `repo_path`, `filePaths`, `outputPath`,
 * `fromFile`, `valuesFile`, `patchFile` — so a name counts by its last word, and a schema by its `format` and by
 * a description or title that says path, directory or folder. What is not a path must not be taken for one
 * either (it would be rewritten and refused): a name ending in `id`, `url`, `content`, `pattern` … is never
 * taken for one on its description's word, and a GitHub `repo` ("owner/name") is not a path.
 */

/** Names that carry a path in the tools people run, whatever their last word. */
const PATH_KEYS = new Set(['path', 'paths', 'file', 'files', 'filename', 'filenames', 'filepath', 'file_path', 'filePath', 'source', 'sources', 'destination', 'dest', 'src', 'target', 'directory', 'directories', 'dir', 'folder', 'root', 'cwd', 'workdir']);

/** Last words (or last two, run together) that make a name a path: `repo_path`, `outputDir`, `fileName`. */
const PATH_NOUNS = new Set(['path', 'paths', 'pathname', 'pathnames', 'filepath', 'filepaths', 'file', 'files', 'filename', 'filenames', 'folder', 'folders', 'dir', 'dirs', 'dirname', 'directory', 'directories', 'cwd', 'workdir']);

/** Last words that say the value is something else, whatever its description mentions. */
const NOT_PATH = new Set(['id', 'ids', 'url', 'urls', 'uri', 'uris', 'content', 'contents', 'text', 'data', 'body', 'pattern', 'patterns', 'glob', 'globs', 'regex', 'query', 'type', 'size', 'encoding', 'format', 'mode', 'hash', 'sha', 'name', 'names', 'count', 'limit']);

/** JSON Schema `format` values that mean "this string is a path"; `uri` ones count only for a `file:` URL. */
const PATH_FORMATS = new Set(['path', 'file-path', 'filepath', 'directory']);
const URI_FORMATS = new Set(['uri', 'uri-reference', 'iri', 'iri-reference']);

/** A description or title that says its value is a path, a directory or a folder … */
const SAYS_PATH = /\b(?:file ?paths?|paths?|path ?names?|director(?:y|ies)|folders?)\b/i;
/** … unless it speaks of URLs or of paths into data (a JSON path, an API route). */
const SAYS_OTHER_PATH = /\b(?:urls?|uris?|https?|json ?path|jsonpath|xpath|jmespath|jq|api|endpoint|route)\b/i;

/** How an argument is marked: always a path, or a path when its value is a `file:` URL. */
export type PathMark = 'path' | 'file-uri';

/** The words of a name, lower case: `repo_path` → repo, path; `filePaths` → file, paths; `outputDir2` → output, dir, 2. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** Whether an argument's name alone makes it a path. */
export function nameSaysPath(name: string): boolean {
  if (PATH_KEYS.has(name)) return true;
  const words = wordsOf(name);
  return words.length > 0 && (PATH_NOUNS.has(words[words.length - 1]) || PATH_NOUNS.has(words.slice(-2).join('')));
}

/** What an argument's own schema says: a path, a path when it is a `file:` URL, or nothing. */
export function schemaSaysPath(name: string, schema: unknown): PathMark | undefined {
  if (!isRecord(schema)) return undefined;
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format && PATH_FORMATS.has(format)) return 'path';
  if (format && URI_FORMATS.has(format)) return 'file-uri';
  const words = wordsOf(name);
  if (words.length > 0 && NOT_PATH.has(words[words.length - 1])) return undefined;
  const said = [schema.description, schema.title].filter((t): t is string => typeof t === 'string').join('\n');
  return SAYS_PATH.test(said) && !SAYS_OTHER_PATH.test(said) ? 'path' : undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

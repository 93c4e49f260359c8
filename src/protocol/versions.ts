/** The stateless revision: no initialize, no session; every request says who it is. */
export const MODERN_VERSION = '2026-07-28';

/** Revisions with `initialize` and sessions, newest first. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export const ALL_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/** JSON-RPC batches were part of exactly one revision (added in 2025-03-26, removed in 2025-06-18). */
export function allowsBatches(version: string | undefined): boolean {
  return version === '2025-03-26';
}

export const MAX_BATCH = 100;

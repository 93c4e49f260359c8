/**
 * Everything the bench takes from inside sluice, in one place. The package's public API (`sluice/agent` and the
 * CLI, which the end-to-end rounds spawn) does not reach what the in-process measurements time — the pipeline, the
 * audit log, the definition scanner, the content filters — so they import it from here, and nowhere else.
 *
 * `#sluice/*` is the package's private import map (package.json "imports"): it loads the build (dist/, what
 * `npm start` runs; `npm run bench` builds it first) and takes its types from the source (src/), so the bench
 * typechecks without a build and is measured as it ships.
 */
export { CatalogIndex } from '#sluice/agent/catalog-search.js';
export { buildCatalog, catalogEntries, DEFAULT_CATALOG_BUDGET } from '#sluice/agent/catalog.js';
export type { ServerOffer } from '#sluice/agent/servers.js';

export type { UnsealedRecord } from '#sluice/audit/chain.js';
export { recordOf } from '#sluice/audit/from-decision.js';
export { AuditLog } from '#sluice/audit/log.js';
export { openPostgresAuditStore } from '#sluice/audit/postgres-store.js';
export { AuditRecorder } from '#sluice/audit/recorder.js';
export { SqliteAuditStore } from '#sluice/audit/sqlite-store.js';
export type { AuditStore } from '#sluice/audit/store.js';
export { verifyStore } from '#sluice/audit/verify.js';

export { parseConfig } from '#sluice/config/load.js';
export type { ServerConfig } from '#sluice/config/schema.js';

export { DefinitionGuard, type OfferedServer } from '#sluice/definitions/guard.js';
export { PeerIndex, scanDefinition, type ScannedDefinition } from '#sluice/definitions/scan.js';

export { DETECTORS } from '#sluice/filters/detectors.js';
export { scanText, type FilterActions } from '#sluice/filters/scan.js';

export { OAuthResource } from '#sluice/identity/oauth-resource.js';
export { resolveBearer } from '#sluice/identity/principal.js';
export { FileTokenStore, MemoryTokenStore } from '#sluice/identity/tokens.js';

export { silentLogger } from '#sluice/log.js';

export { canonicalPath } from '#sluice/policy/canonical-path.js';
export { runChecked } from '#sluice/policy/chokepoint.js';
export { FsBudget } from '#sluice/policy/fs-budget.js';
export { Hooks } from '#sluice/policy/hooks.js';
export { Security } from '#sluice/policy/security.js';

export type { Params } from '#sluice/protocol/jsonrpc.js';

export { memoryState } from '#sluice/state/memory-state.js';
export { redisState } from '#sluice/state/redis-state.js';
export { sqliteState } from '#sluice/state/sqlite-state.js';
